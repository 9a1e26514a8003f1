import type { RecordData, ResolvedCollection } from './collections/collection.types';

/** A record as the API shows it: PocketBase's key order, hidden fields never included. */
export type RecordJson = Record<string, unknown> & {
  id: string;
  collectionId: string;
  collectionName: string;
};

export interface ViewOptions {
  /** Show `email` of an auth record even when its `emailVisibility` is off (owner, manager, superuser). */
  readonly showEmail?: boolean;
}

/** Serialises record data for a response: `collectionId`, `collectionName`, then every visible field. */
export function toRecordJson(
  collection: ResolvedCollection,
  data: RecordData,
  options: ViewOptions = {},
): RecordJson {
  const json: Record<string, unknown> = { collectionId: collection.id, collectionName: collection.name };
  for (const field of collection.fields) {
    if (field.hidden || field.type === 'password') {
      continue;
    }
    if (collection.type === 'auth' && field.name === 'email' && !options.showEmail && !data.emailVisibility) {
      continue;
    }
    json[field.name] = data[field.name];
  }
  return json as RecordJson;
}
