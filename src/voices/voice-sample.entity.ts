import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A reference recording of a cloning voice. The audio is stored normalised (mono 16-bit PCM WAV), so generation
 * only has to read and forward it; its measured duration counts towards the model's maxReferenceDuration.
 */
@Entity('voice_samples')
@Index('IDX_voice_samples_voice', ['voice'])
export class VoiceSampleEntity {
  @PrimaryColumn({ type: 'varchar', length: 15 })
  id!: string;

  @Column({ type: 'varchar', length: 15 })
  voice!: string;

  /** Stored file name of the WAV. */
  @Column({ type: 'varchar', default: '' })
  audio!: string;

  /** What is said in the recording. */
  @Column({ type: 'text', default: '' })
  transcript!: string;

  /** Length of the recording in seconds. */
  @Column({ type: 'real', default: 0 })
  duration!: number;

  @Column({ name: 'sample_rate', type: 'integer', default: 0 })
  sampleRate!: number;

  @Column({ type: 'varchar' })
  created!: string;

  @Column({ type: 'varchar' })
  updated!: string;
}
