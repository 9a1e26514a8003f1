import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A superuser of the records admin at /_/ (the `_superusers` auth collection); bypasses every collection rule. */
@Entity('_superusers')
export class SuperuserEntity {
  @PrimaryColumn({ type: 'varchar', length: 15 })
  id!: string;

  @Column({ type: 'varchar', unique: true })
  email!: string;

  @Column({ name: 'email_visibility', type: 'boolean', default: false })
  emailVisibility!: boolean;

  @Column({ type: 'boolean', default: true })
  verified!: boolean;

  @Column({ type: 'varchar' })
  password!: string;

  @Column({ name: 'token_key', type: 'varchar' })
  tokenKey!: string;

  @Column({ type: 'varchar' })
  created!: string;

  @Column({ type: 'varchar' })
  updated!: string;
}
