import { InferenceServerEntity } from '../../fleet/inference-server.entity';
import type { CollectionDefinition } from './collection.types';

const ADMIN = '@request.auth.role = "admin"';

/**
 * `inference_servers`: the fleet of workers (owned by src/fleet). Admins and superusers only; the worker's
 * bearer token is hidden, and the health fields are written by the fleet's health loop alone.
 */
export const INFERENCE_SERVERS_COLLECTION: CollectionDefinition = {
  name: 'inference_servers',
  type: 'base',
  entity: InferenceServerEntity,
  fields: [
    { name: 'name', type: 'text', required: true, max: 255 },
    { name: 'url', type: 'url', required: true },
    { name: 'authToken', type: 'text', hidden: true },
    { name: 'enabled', type: 'bool', default: true },
    { name: 'priority', type: 'number', onlyInt: true },
    { name: 'isLocal', type: 'bool', readOnly: true },
    {
      name: 'status',
      type: 'select',
      values: ['unknown', 'online', 'offline'],
      default: 'unknown',
      readOnly: true,
    },
    { name: 'device', type: 'text', readOnly: true },
    { name: 'version', type: 'text', readOnly: true },
    { name: 'lastCheck', type: 'text', readOnly: true },
    { name: 'lastError', type: 'text', readOnly: true },
  ],
  rules: { list: ADMIN, view: ADMIN, create: ADMIN, update: ADMIN, delete: ADMIN },
};
