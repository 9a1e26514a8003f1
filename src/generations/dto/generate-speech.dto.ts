import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

export const MIN_SPEED = 0.25;
export const MAX_SPEED = 4;

/** Body of `POST /api/generate` (SPEC §4.1). The input length limit is checked by the service (configurable). */
export class GenerateSpeechDto {
  @ApiProperty({ description: 'Catalog id of the model.', example: 'espeak-ng' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  model!: string;

  @ApiProperty({ description: 'Text to speak.', example: 'Hello from Chorus.' })
  @IsString()
  @IsNotEmpty()
  input!: string;

  @ApiPropertyOptional({
    description:
      "A voice id, or for preset models the id of one of its preset voices. Default: the model's first voice for the language.",
    example: 'en-us',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  voice?: string;

  @ApiPropertyOptional({
    description: 'Speaking rate, 1 = normal.',
    minimum: MIN_SPEED,
    maximum: MAX_SPEED,
    default: 1,
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(MIN_SPEED)
  @Max(MAX_SPEED)
  speed?: number;

  @ApiPropertyOptional({
    description: 'ISO 639-1 language code (or a regional tag such as en-gb).',
    example: 'en',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i, {
    message: 'language must be a language code such as "en" or "en-gb"',
  })
  language?: string;

  @ApiPropertyOptional({
    description: 'Return raw PCM (s16le mono) chunks as they are made instead of a WAV.',
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  stream?: boolean;
}
