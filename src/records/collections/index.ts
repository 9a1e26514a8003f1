import { GENERATIONS_COLLECTION } from '../../generations/generations.collection';
import { SUPERUSERS_COLLECTION } from '../../users/superusers.collection';
import { USERS_COLLECTION } from '../../users/users.collection';
import { VOICE_SAMPLES_COLLECTION, VOICES_COLLECTION } from '../../voices/voices.collection';
import type { CollectionDefinition } from './collection.types';
import { INFERENCE_SERVERS_COLLECTION } from './inference-servers.collection';

/**
 * Every collection of the records API. To expose a new entity: write its CollectionDefinition beside the
 * feature (see src/records/README.md) and add it here. Relations may point at any collection in this list.
 */
export const COLLECTIONS: readonly CollectionDefinition[] = [
  SUPERUSERS_COLLECTION,
  USERS_COLLECTION,
  INFERENCE_SERVERS_COLLECTION,
  VOICES_COLLECTION,
  VOICE_SAMPLES_COLLECTION,
  GENERATIONS_COLLECTION,
];
