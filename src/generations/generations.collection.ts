import type { CollectionDefinition } from '../records/collections/collection.types';
import { RECORDS_API_FILE_MAX_BYTES } from '../voices/voices.collection';
import { GenerationEntity } from './generation.entity';

const OWNER = '@request.auth.id != "" && user = @request.auth.id';

/**
 * `generations` (owned by src/generations): the history. Rows are written by `POST /api/generate` after the last
 * audio byte, so every field is read-only and creation/update are left to superusers; owners read and delete.
 */
export const GENERATIONS_COLLECTION: CollectionDefinition = {
  name: 'generations',
  type: 'base',
  entity: GenerationEntity,
  fields: [
    {
      name: 'user',
      type: 'relation',
      required: true,
      readOnly: true,
      relation: { collection: 'users', cascadeDelete: true },
    },
    { name: 'text', type: 'text', readOnly: true },
    { name: 'model', type: 'text', readOnly: true },
    { name: 'voice', type: 'relation', readOnly: true, relation: { collection: 'voices' } },
    { name: 'voiceName', type: 'text', readOnly: true },
    { name: 'presetVoice', type: 'text', readOnly: true },
    { name: 'language', type: 'text', readOnly: true },
    { name: 'speed', type: 'number', readOnly: true },
    { name: 'duration', type: 'number', readOnly: true },
    { name: 'sampleRate', type: 'number', onlyInt: true, readOnly: true },
    {
      name: 'audio',
      type: 'file',
      readOnly: true,
      file: { maxSize: RECORDS_API_FILE_MAX_BYTES, mimeTypes: ['audio/wav'], protected: true },
    },
    {
      name: 'server',
      type: 'relation',
      readOnly: true,
      relation: { collection: 'inference_servers' },
    },
    { name: 'serverName', type: 'text', readOnly: true },
    { name: 'streamed', type: 'bool', readOnly: true },
    { name: 'firstByteMs', type: 'number', onlyInt: true, readOnly: true },
    { name: 'totalMs', type: 'number', onlyInt: true, readOnly: true },
  ],
  rules: { list: OWNER, view: OWNER, create: null, update: null, delete: OWNER },
};
