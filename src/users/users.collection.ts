import type { CollectionDefinition } from '../records/collections/collection.types';
import { UserEntity } from './user.entity';

/** Only the user themself, or an admin. */
const SELF_OR_ADMIN = 'id = @request.auth.id || @request.auth.role = "admin"';
const ADMIN = '@request.auth.role = "admin"';

export const AVATAR_MAX_SIZE = 5 * 1024 * 1024;

/**
 * `users`: the app's accounts. Sign-up is a create (open to anyone). The first account ever created becomes
 * `admin` (decided inside the INSERT, so two concurrent first sign-ups cannot both win); later ones are `user`.
 * Only an admin (manage rule) or a superuser may set or change a role, and `verified`.
 */
export const USERS_COLLECTION: CollectionDefinition = {
  name: 'users',
  // PocketBase's well-known id of its default users collection.
  id: '_pb_users_auth_',
  type: 'auth',
  entity: UserEntity,
  fields: [
    { name: 'name', type: 'text', max: 255 },
    {
      name: 'avatar',
      type: 'file',
      file: {
        maxSize: AVATAR_MAX_SIZE,
        mimeTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
        thumbs: ['100x100', '64x64', '200x200'],
      },
    },
    {
      name: 'role',
      type: 'select',
      values: ['admin', 'user'],
      required: true,
      default: 'user',
      firstRecordValue: 'admin',
      manageOnly: true,
    },
  ],
  rules: {
    list: SELF_OR_ADMIN,
    view: SELF_OR_ADMIN,
    create: '',
    update: SELF_OR_ADMIN,
    delete: SELF_OR_ADMIN,
    auth: '',
    manage: ADMIN,
  },
};
