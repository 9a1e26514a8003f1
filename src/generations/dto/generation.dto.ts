import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsISO8601, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import type { GenerationEntity } from '../generation.entity';

export const DEFAULT_HISTORY_PER_PAGE = 20;
export const MAX_HISTORY_PER_PAGE = 100;

/** One history entry. */
export class GenerationDto {
  @ApiProperty({ example: 'a1b2c3d4e5f6g7h' })
  id!: string;

  @ApiProperty({ description: 'Id of the owner (users record).' })
  user!: string;

  @ApiProperty({ description: 'The text that was spoken.' })
  text!: string;

  @ApiProperty({ description: 'Catalog id of the model.', example: 'espeak-ng' })
  model!: string;

  @ApiProperty({
    description: "Id of the Chorus voice used, or '' (a preset voice given directly, or a deleted voice).",
  })
  voice!: string;

  @ApiProperty({ description: "Name of the Chorus voice at generation time, or ''." })
  voiceName!: string;

  @ApiProperty({ description: "Preset voice the model spoke with, or ''.", example: 'en-us' })
  presetVoice!: string;

  @ApiProperty({ description: "Language code, or '' when the model chose.", example: 'en' })
  language!: string;

  @ApiProperty({ example: 1 })
  speed!: number;

  @ApiProperty({ description: 'Length of the audio in seconds.', example: 3.52 })
  duration!: number;

  @ApiProperty({ description: 'Sample rate of the audio in Hz.', example: 22050 })
  sampleRate!: number;

  @ApiProperty({
    description: 'Download path of the WAV.',
    example: '/api/generations/a1b2c3d4e5f6g7h/audio',
  })
  audioUrl!: string;

  @ApiProperty({ description: "Id of the worker that spoke it (inference_servers record), or ''." })
  server!: string;

  @ApiProperty({ description: 'Name of that worker at the time.', example: 'Local' })
  serverName!: string;

  @ApiProperty({ description: 'True when the audio was streamed as PCM.' })
  streamed!: boolean;

  @ApiProperty({ description: 'Milliseconds from the request to the first audio byte.', example: 180 })
  firstByteMs!: number;

  @ApiProperty({ description: 'Milliseconds from the request to the last audio byte.', example: 950 })
  totalMs!: number;

  @ApiProperty({ example: '2026-01-01 12:00:00.000Z' })
  created!: string;
}

/** A page of history (the records layer's list envelope), newest first. */
export class GenerationListDto {
  @ApiProperty({ example: 1 })
  page!: number;

  @ApiProperty({ example: DEFAULT_HISTORY_PER_PAGE })
  perPage!: number;

  @ApiProperty({ example: 1 })
  totalItems!: number;

  @ApiProperty({ example: 1 })
  totalPages!: number;

  @ApiProperty({ type: [GenerationDto] })
  items!: GenerationDto[];
}

/** Query of `GET /api/generations`. */
export class ListGenerationsQueryDto {
  @ApiPropertyOptional({ description: 'A Chorus voice id, or a preset voice id.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  voice?: string;

  @ApiPropertyOptional({ description: 'Catalog id of the model.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  model?: string;

  @ApiPropertyOptional({ description: 'Language code; a base code (en) also matches regional tags (en-gb).' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i, {
    message: 'language must be a language code such as "en" or "en-gb"',
  })
  language?: string;

  @ApiPropertyOptional({
    description: 'Made at or after this ISO 8601 date or date-time.',
    example: '2026-01-01',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date or date-time' })
  from?: string;

  @ApiPropertyOptional({
    description: 'Made at or before this ISO 8601 date-time; a date alone includes that whole day (UTC).',
    example: '2026-01-31',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date or date-time' })
  to?: string;

  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_HISTORY_PER_PAGE, default: DEFAULT_HISTORY_PER_PAGE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_HISTORY_PER_PAGE)
  perPage?: number;
}

export function toGenerationDto(generation: GenerationEntity): GenerationDto {
  return {
    id: generation.id,
    user: generation.user,
    text: generation.text,
    model: generation.model,
    voice: generation.voice,
    voiceName: generation.voiceName,
    presetVoice: generation.presetVoice,
    language: generation.language,
    speed: generation.speed,
    duration: generation.duration,
    sampleRate: generation.sampleRate,
    audioUrl: `/api/generations/${generation.id}/audio`,
    server: generation.server,
    serverName: generation.serverName,
    streamed: generation.streamed,
    firstByteMs: generation.firstByteMs,
    totalMs: generation.totalMs,
    created: generation.created,
  };
}
