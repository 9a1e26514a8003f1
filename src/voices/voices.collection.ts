import type { CollectionDefinition } from '../records/collections/collection.types';
import { VoiceSampleEntity } from './voice-sample.entity';
import { VoiceEntity } from './voice.entity';

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Largest sample accepted by `POST /api/voices/:id/samples`. */
export const SAMPLE_MAX_BYTES = 20 * 1024 * 1024;
/**
 * Upload cap of file fields that only superusers write through the records API (samples, generations): the
 * records layer buffers uploads up to its largest field limit, so this stays at the avatar size.
 */
export const RECORDS_API_FILE_MAX_BYTES = AVATAR_MAX_BYTES;
export const AVATAR_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

const SIGNED_IN = '@request.auth.id != ""';
const OWNER = `${SIGNED_IN} && user = @request.auth.id`;
const VOICE_OWNER = `${SIGNED_IN} && voice.user = @request.auth.id`;

/**
 * `voices` (owned by src/voices). Users read their own voices and public ones, and change only their own.
 * Creating a voice, and changing what depends on the catalog (model, preset voice, language, options), goes
 * through `/api/voices`, which validates against the catalog; through the records API those fields are
 * read-only and creation is left to superusers.
 */
export const VOICES_COLLECTION: CollectionDefinition = {
  name: 'voices',
  type: 'base',
  entity: VoiceEntity,
  fields: [
    {
      name: 'user',
      type: 'relation',
      required: true,
      readOnly: true,
      relation: { collection: 'users', cascadeDelete: true },
    },
    { name: 'name', type: 'text', required: true, max: 100 },
    { name: 'description', type: 'text', max: 1000 },
    { name: 'language', type: 'text', max: 35, readOnly: true },
    {
      name: 'avatar',
      type: 'file',
      file: { maxSize: AVATAR_MAX_BYTES, mimeTypes: AVATAR_MIME_TYPES, thumbs: ['64x64', '200x200'] },
    },
    { name: 'model', type: 'text', required: true, max: 100, readOnly: true },
    { name: 'presetVoice', type: 'text', max: 100, readOnly: true },
    { name: 'options', type: 'json', readOnly: true },
    { name: 'tags', type: 'json' },
    { name: 'public', type: 'bool' },
  ],
  rules: {
    list: `${SIGNED_IN} && (user = @request.auth.id || public = true)`,
    view: `${SIGNED_IN} && (user = @request.auth.id || public = true)`,
    create: null,
    update: OWNER,
    delete: OWNER,
  },
};

/**
 * `voice_samples` (owned by src/voices): reference recordings of cloning voices, visible to the voice's owner
 * only. Samples are added through `POST /api/voices/:id/samples` (the audio is decoded, measured and checked
 * against the model's limit), so records-API writes are left to superusers; owners may delete.
 */
export const VOICE_SAMPLES_COLLECTION: CollectionDefinition = {
  name: 'voice_samples',
  type: 'base',
  entity: VoiceSampleEntity,
  fields: [
    {
      name: 'voice',
      type: 'relation',
      required: true,
      readOnly: true,
      relation: { collection: 'voices', cascadeDelete: true },
    },
    {
      name: 'audio',
      type: 'file',
      required: true,
      file: { maxSize: RECORDS_API_FILE_MAX_BYTES, mimeTypes: ['audio/wav'], protected: true },
    },
    { name: 'transcript', type: 'text', max: 5000 },
    { name: 'duration', type: 'number', min: 0, readOnly: true },
    { name: 'sampleRate', type: 'number', onlyInt: true, min: 0, readOnly: true },
  ],
  rules: {
    list: VOICE_OWNER,
    view: VOICE_OWNER,
    create: null,
    update: null,
    delete: VOICE_OWNER,
  },
};
