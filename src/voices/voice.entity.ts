import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { jsonColumn } from '../common/records/json-column';

/**
 * A voice of a user: a catalog model plus how to speak with it — one of the model's preset voices, or (cloning
 * models) the reference samples in `voice_samples`. Public voices are readable, not writable, by every user.
 */
@Entity('voices')
@Index('IDX_voices_user', ['user'])
export class VoiceEntity {
  @PrimaryColumn({ type: 'varchar', length: 15 })
  id!: string;

  /** Owner (users record id). */
  @Column({ type: 'varchar', length: 15 })
  user!: string;

  @Column({ type: 'varchar' })
  name!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  /** ISO 639-1 code (or a regional tag), '' = the model's default. */
  @Column({ type: 'varchar', default: '' })
  language!: string;

  /** Stored file name of the avatar image, or ''. */
  @Column({ type: 'varchar', default: '' })
  avatar!: string;

  /** Catalog id of the model the voice speaks with. */
  @Column({ type: 'varchar' })
  model!: string;

  /** Id of one of the model's preset voices (preset models), or ''. */
  @Column({ name: 'preset_voice', type: 'varchar', default: '' })
  presetVoice!: string;

  /** Free-form model options (a JSON object), e.g. for voice design models. */
  @Column({ type: 'text', default: '{}', transformer: jsonColumn<Record<string, unknown>>({}) })
  options!: Record<string, unknown>;

  @Column({ type: 'text', default: '[]', transformer: jsonColumn<string[]>([]) })
  tags!: string[];

  @Column({ type: 'boolean', default: false })
  public!: boolean;

  @Column({ type: 'varchar' })
  created!: string;

  @Column({ type: 'varchar' })
  updated!: string;
}
