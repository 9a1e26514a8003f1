import { Column, Entity, PrimaryColumn } from 'typeorm';

export type InferenceServerStatus = 'unknown' | 'online' | 'offline';

/** A registered inference worker (the fleet). `authToken` is hidden: it never leaves the server. */
@Entity('inference_servers')
export class InferenceServerEntity {
  @PrimaryColumn({ type: 'varchar', length: 15 })
  id!: string;

  @Column({ type: 'varchar' })
  name!: string;

  @Column({ type: 'varchar', unique: true })
  url!: string;

  @Column({ name: 'auth_token', type: 'varchar', default: '' })
  authToken!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ type: 'integer', default: 0 })
  priority!: number;

  /** True for the entry seeded from INFERENCE_URL. */
  @Column({ name: 'is_local', type: 'boolean', default: false })
  isLocal!: boolean;

  @Column({ type: 'varchar', default: 'unknown' })
  status!: InferenceServerStatus;

  @Column({ type: 'varchar', default: '' })
  device!: string;

  @Column({ type: 'varchar', default: '' })
  version!: string;

  @Column({ name: 'last_check', type: 'varchar', default: '' })
  lastCheck!: string;

  @Column({ name: 'last_error', type: 'varchar', default: '' })
  lastError!: string;

  @Column({ type: 'varchar' })
  created!: string;

  @Column({ type: 'varchar' })
  updated!: string;
}
