import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One successful generation (history entry): what was asked, who answered, and the audio (a WAV file). */
@Entity('generations')
@Index('IDX_generations_user_created', ['user', 'created'])
export class GenerationEntity {
  @PrimaryColumn({ type: 'varchar', length: 15 })
  id!: string;

  /** Owner (users record id). */
  @Column({ type: 'varchar', length: 15 })
  user!: string;

  @Column({ type: 'text' })
  text!: string;

  /** Catalog id of the model. */
  @Column({ type: 'varchar' })
  model!: string;

  /** The Chorus voice used (voices record id), or '' (a preset voice given directly, or the voice was deleted). */
  @Column({ type: 'varchar', default: '' })
  voice!: string;

  /** Name of the Chorus voice at generation time, kept when the voice is deleted. */
  @Column({ name: 'voice_name', type: 'varchar', default: '' })
  voiceName!: string;

  /** Preset voice id the worker spoke with, or ''. */
  @Column({ name: 'preset_voice', type: 'varchar', default: '' })
  presetVoice!: string;

  @Column({ type: 'varchar', default: '' })
  language!: string;

  @Column({ type: 'real', default: 1 })
  speed!: number;

  /** Length of the audio in seconds. */
  @Column({ type: 'real', default: 0 })
  duration!: number;

  @Column({ name: 'sample_rate', type: 'integer', default: 0 })
  sampleRate!: number;

  /** Stored file name of the WAV. */
  @Column({ type: 'varchar', default: '' })
  audio!: string;

  /** The worker that spoke it (inference_servers record id) and its name at the time. */
  @Column({ type: 'varchar', default: '' })
  server!: string;

  @Column({ name: 'server_name', type: 'varchar', default: '' })
  serverName!: string;

  /** True when the client asked for a PCM stream. */
  @Column({ type: 'boolean', default: false })
  streamed!: boolean;

  /** Milliseconds from the request to the first audio byte from the worker. */
  @Column({ name: 'first_byte_ms', type: 'integer', default: 0 })
  firstByteMs!: number;

  /** Milliseconds from the request to the last audio byte. */
  @Column({ name: 'total_ms', type: 'integer', default: 0 })
  totalMs!: number;

  @Column({ type: 'varchar' })
  created!: string;

  @Column({ type: 'varchar' })
  updated!: string;
}
