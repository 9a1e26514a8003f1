import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

import { IsSafeRelativePath } from '../../common/safe-relative-path.validator';
import type { GenerateRequest } from '../../contract/worker-api';

export const MIN_SPEED = 0.25;
export const MAX_SPEED = 4;
/** Absolute bound, checked before INFERENCE_MAX_TEXT_LENGTH (the configured, usually lower, limit). */
const TEXT_HARD_LIMIT = 1_000_000;
const MAX_REFERENCES = 16;

/** Body of `POST /generate` and `POST /generate/stream`. */
export class GenerateRequestDto implements GenerateRequest {
  @ApiProperty({ description: 'Backend that synthesises the text', example: 'espeak' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @Matches(/^[a-z0-9][a-z0-9_-]*$/, { message: 'backend must be a backend name such as espeak' })
  backend!: string;

  @ApiProperty({
    description: 'Text to speak; at most INFERENCE_MAX_TEXT_LENGTH characters (default 20000)',
    example: 'Hello world. This is Chorus speaking.',
  })
  @IsString()
  @IsNotEmpty()
  @Matches(/\S/, { message: 'text must not be blank' })
  @MaxLength(TEXT_HARD_LIMIT)
  text!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'Preset voice: a file relative to the models directory, or an engine voice name for embedded engines ' +
      '(espeak: en-us, de, fr, … optionally +variant, e.g. en-us+f3)',
    example: 'en-us',
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  voice_path?: string | null;

  @ApiPropertyOptional({
    minimum: MIN_SPEED,
    maximum: MAX_SPEED,
    default: 1,
    description: '1 = normal speed',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(MIN_SPEED)
  @Max(MAX_SPEED)
  speed?: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Language code (ISO 639-1 or BCP 47)',
    example: 'en',
  })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  @Matches(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/, {
    message: 'language must be a language code such as en or en-US',
  })
  language?: string | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    description:
      'Cloning references: base64-encoded WAV, one per sample (ignored by engines without cloning)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_REFERENCES)
  @IsString({ each: true })
  reference_audio?: string[] | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    description: 'Transcripts of the references, one per sample',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_REFERENCES)
  @IsString({ each: true })
  @MaxLength(10_000, { each: true })
  reference_text?: string[] | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'Model folder `<backend>/<variant>` relative to the models directory (ignored by embedded engines)',
    example: 'piper/en_US-lessac-medium',
  })
  @IsOptional()
  @IsString()
  @IsSafeRelativePath()
  model_path?: string | null;
}
