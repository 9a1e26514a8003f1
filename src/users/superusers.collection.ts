import type { CollectionDefinition } from '../records/collections/collection.types';
import { SuperuserEntity } from './superuser.entity';

/**
 * `_superusers`: accounts of the /_/ admin panel. Every rule is null (superusers only); the first one is made
 * with the CLI (`npm run superuser -- upsert <email> <password>`).
 */
export const SUPERUSERS_COLLECTION: CollectionDefinition = {
  name: '_superusers',
  // The id the pocketbase SDK recognises as the superusers collection.
  id: '_pbc_2773867675',
  type: 'auth',
  entity: SuperuserEntity,
  system: true,
  fields: [],
  rules: { list: null, view: null, create: null, update: null, delete: null, auth: '', manage: null },
};
