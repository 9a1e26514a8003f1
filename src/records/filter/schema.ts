/** How the records layer describes a collection to the filter compiler: the whitelist of filterable fields. */

export type FieldType =
  | 'text'
  | 'number'
  | 'bool'
  | 'date'
  | 'select'
  | 'json'
  | 'relation'
  | 'file'
  | 'email'
  | 'url'
  | 'autodate'
  | 'password';

export interface FieldSchema {
  /** The name clients use in filters, sorts and JSON. */
  name: string;
  /** The SQL column; must be a plain identifier (`[A-Za-z_][A-Za-z0-9_]*`). */
  column: string;
  type: FieldType;
  /** select/file/relation holding a JSON array (TEXT) of values/ids instead of a single value. */
  multiple?: boolean;
  /** Required for `type: 'relation'`: the target collection's name, passed to `resolveCollection`. */
  relation?: { collection: string };
  /** Only API rules (`allowHidden: true`) may reference hidden fields; `password` fields never. */
  hidden?: boolean;
}

export interface CollectionSchema {
  id: string;
  name: string;
  /** The SQL table; must be a plain identifier. */
  table: string;
  /** Must include `id` (the primary key joined on by relations), and normally `created` and `updated`. */
  fields: FieldSchema[];
  /**
   * The collection's API list rule, used the way PocketBase uses it when a *user filter* (`allowHidden:
   * false`) reaches this collection through a relation, back-relation, `@collection` or sort: `null` or
   * absent = superusers only (such references are rejected), `''` = public, otherwise only related records
   * matching the rule are visible (the others behave as if absent). Ignored for API rules.
   */
  listRule?: string | null;
}

export interface FilterContext {
  /** The collection being filtered. */
  collection: CollectionSchema;
  /** The table alias of `collection` in the outer query (e.g. the TypeORM QueryBuilder alias). */
  alias: string;
  /** Looks up relation targets and `@collection.<name>` by name (or id). */
  resolveCollection(name: string): CollectionSchema | undefined;
  /** The authenticated record (its field values by field name, plus `collectionName`), or null for guests. */
  auth: Record<string, unknown> | null;
  /** `@request.body.*`: the submitted record fields (create/update rules). */
  body?: Record<string, unknown>;
  /** `@request.query.*`: the request's query parameters. */
  query?: Record<string, unknown>;
  /** `@request.headers.*`: names are matched lower-cased with `-` replaced by `_`, as PocketBase does. */
  headers?: Record<string, string | string[] | undefined>;
  /** `@request.method`, e.g. `GET`. */
  method?: string;
  /** `@request.context` (PocketBase: default, oauth2, otp, password, realtime, protectedFile). Defaults to `default`. */
  context?: string;
  /** The instant the datetime macros are computed from; defaults to now. */
  now?: Date;
  /** True for API rules (written by admins); false (default) for user-supplied filters and sorts. */
  allowHidden?: boolean;
  /**
   * Whether `@collection.*` may be used. Each one is a cross join, so an untrusted filter with several of
   * them can be very expensive; the REST layer may prefer to disable it for user filters. Defaults to true.
   */
  allowCollectionJoins?: boolean;
}
