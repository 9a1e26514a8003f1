import { Column, Entity, PrimaryColumn } from 'typeorm';

export type UserRole = 'admin' | 'user';

/**
 * An account of the app (the `users` auth collection). `password` (an scrypt hash) and `tokenKey` are hidden:
 * they never leave the server. The first account ever created becomes `admin` (see users.collection.ts).
 */
@Entity('users')
export class UserEntity {
  @PrimaryColumn({ type: 'varchar', length: 15 })
  id!: string;

  /** Stored trimmed and lower-cased, so uniqueness is case-insensitive. */
  @Column({ type: 'varchar', unique: true })
  email!: string;

  @Column({ name: 'email_visibility', type: 'boolean', default: false })
  emailVisibility!: boolean;

  @Column({ type: 'boolean', default: false })
  verified!: boolean;

  @Column({ type: 'varchar' })
  password!: string;

  /** Part of the token signing key: changing it revokes every token issued for the account. */
  @Column({ name: 'token_key', type: 'varchar' })
  tokenKey!: string;

  @Column({ type: 'varchar', default: '' })
  name!: string;

  /** File name of the avatar under the record's storage folder, or ''. */
  @Column({ type: 'varchar', default: '' })
  avatar!: string;

  @Column({ type: 'varchar', default: 'user' })
  role!: UserRole;

  @Column({ type: 'varchar' })
  created!: string;

  @Column({ type: 'varchar' })
  updated!: string;
}
