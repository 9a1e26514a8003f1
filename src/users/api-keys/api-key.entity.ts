import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A user's API key. Only a sha256 of the key is stored (`keyHash`, hidden): the key itself is shown once, at
 * creation. Keys are 256-bit random values, so a fast hash is enough; a slow KDF protects low-entropy secrets.
 */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 15 })
  id!: string;

  @Index()
  @Column({ type: 'varchar' })
  user!: string;

  @Column({ type: 'varchar' })
  name!: string;

  /** The key's first characters, to recognise it in a list. */
  @Column({ type: 'varchar' })
  prefix!: string;

  @Index({ unique: true })
  @Column({ name: 'key_hash', type: 'varchar' })
  keyHash!: string;

  @Column({ name: 'last_used', type: 'varchar', default: '' })
  lastUsed!: string;

  /** Expiry date (PocketBase format) or '' for keys that never expire. */
  @Column({ type: 'varchar', default: '' })
  expires!: string;

  @Column({ type: 'varchar' })
  created!: string;

  @Column({ type: 'varchar' })
  updated!: string;
}
