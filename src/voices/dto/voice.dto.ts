import { ApiProperty } from '@nestjs/swagger';
import type { VoiceSampleEntity } from '../voice-sample.entity';
import type { VoiceEntity } from '../voice.entity';

/** A reference recording of a voice. */
export class VoiceSampleDto {
  @ApiProperty({ example: 'k2j4h5g6f7d8s9a' })
  id!: string;

  @ApiProperty({ description: 'Id of the voice.' })
  voice!: string;

  @ApiProperty()
  transcript!: string;

  @ApiProperty({ description: 'Length in seconds.', example: 6.4 })
  duration!: number;

  @ApiProperty({ description: 'Sample rate of the stored WAV, in Hz.', example: 24000 })
  sampleRate!: number;

  @ApiProperty({
    description:
      'Path of the stored WAV (mono 16-bit) under the records file API; it is protected, so append `?token=` from POST /api/files/token.',
    example: '/api/files/pbc_12345678901/k2j4h5g6f7d8s9a/sample_a1b2c3d4e5.wav',
  })
  audioUrl!: string;

  @ApiProperty({ example: '2026-01-01 12:00:00.000Z' })
  created!: string;
}

/** A voice as the API shows it. */
export class VoiceDto {
  @ApiProperty({ example: 'a1b2c3d4e5f6g7h' })
  id!: string;

  @ApiProperty({ description: 'Id of the owner (users record).' })
  user!: string;

  @ApiProperty({ description: 'True when the caller owns the voice (and so may change it).' })
  owned!: boolean;

  @ApiProperty({ example: 'Narrator' })
  name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ description: "Language code, '' when the model's default is used.", example: 'en' })
  language!: string;

  @ApiProperty({ description: 'Catalog id of the model.', example: 'espeak-ng' })
  model!: string;

  @ApiProperty({ description: "Preset voice id of the model, or ''.", example: 'en-us' })
  presetVoice!: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  options!: Record<string, unknown>;

  @ApiProperty({ type: [String] })
  tags!: string[];

  @ApiProperty()
  public!: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Path of the avatar image under the records file API (`?thumb=64x64` for a thumbnail), or null.',
  })
  avatarUrl!: string | null;

  @ApiProperty({ type: [VoiceSampleDto], description: 'Reference recordings (cloning models).' })
  samples!: VoiceSampleDto[];

  @ApiProperty({ description: 'Total length of the samples in seconds.', example: 12.8 })
  referenceDuration!: number;

  @ApiProperty({ example: '2026-01-01 12:00:00.000Z' })
  created!: string;

  @ApiProperty({ example: '2026-01-01 12:00:00.000Z' })
  updated!: string;
}

/** A page of voices (the records layer's list envelope). */
export class VoiceListDto {
  @ApiProperty({ example: 1 })
  page!: number;

  @ApiProperty({ example: 20 })
  perPage!: number;

  @ApiProperty({ example: 1 })
  totalItems!: number;

  @ApiProperty({ example: 1 })
  totalPages!: number;

  @ApiProperty({ type: [VoiceDto] })
  items!: VoiceDto[];
}

/** Collection ids the file URLs are built with. */
export interface VoiceFileCollections {
  voices: string;
  samples: string;
}

export function toVoiceSampleDto(sample: VoiceSampleEntity, collectionId: string): VoiceSampleDto {
  return {
    id: sample.id,
    voice: sample.voice,
    transcript: sample.transcript,
    duration: sample.duration,
    sampleRate: sample.sampleRate,
    audioUrl: `/api/files/${collectionId}/${sample.id}/${sample.audio}`,
    created: sample.created,
  };
}

export function toVoiceDto(
  voice: VoiceEntity,
  samples: readonly VoiceSampleEntity[],
  viewerId: string,
  collections: VoiceFileCollections,
): VoiceDto {
  const ordered = [...samples].sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
  return {
    id: voice.id,
    user: voice.user,
    owned: voice.user === viewerId,
    name: voice.name,
    description: voice.description,
    language: voice.language,
    model: voice.model,
    presetVoice: voice.presetVoice,
    options: isPlainObject(voice.options) ? voice.options : {},
    tags: Array.isArray(voice.tags) ? voice.tags.filter((tag) => typeof tag === 'string') : [],
    public: voice.public,
    avatarUrl: voice.avatar ? `/api/files/${collections.voices}/${voice.id}/${voice.avatar}` : null,
    samples: ordered.map((sample) => toVoiceSampleDto(sample, collections.samples)),
    referenceDuration: roundSeconds(ordered.reduce((sum, sample) => sum + sample.duration, 0)),
    created: voice.created,
    updated: voice.updated,
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function roundSeconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
