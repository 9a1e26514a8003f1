import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Server-wide key/value settings of the records layer (PocketBase's `_params`), e.g. the token signing secret. */
@Entity('_params')
export class ParamEntity {
  @PrimaryColumn({ type: 'varchar' })
  id!: string;

  @Column({ type: 'text' })
  value!: string;

  @Column({ type: 'varchar' })
  created!: string;

  @Column({ type: 'varchar' })
  updated!: string;
}
