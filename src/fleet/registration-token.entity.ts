import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A one-hour token that only permits registering a worker (SPEC §5). Only its sha256 is stored. */
@Entity('registration_tokens')
export class RegistrationTokenEntity {
  @PrimaryColumn({ type: 'varchar', length: 15 })
  id!: string;

  @Index({ unique: true })
  @Column({ name: 'token_hash', type: 'varchar' })
  tokenHash!: string;

  /** Id of the admin (user or superuser) who issued it. */
  @Column({ name: 'created_by', type: 'varchar' })
  createdBy!: string;

  @Column({ type: 'varchar' })
  expires!: string;

  /** Last time a worker registered with it ('' = never used). */
  @Column({ name: 'last_used', type: 'varchar', default: '' })
  lastUsed!: string;

  @Column({ type: 'varchar' })
  created!: string;
}
