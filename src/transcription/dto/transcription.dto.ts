import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** Query of `POST /api/transcribe`. */
export class TranscribeQueryDto {
  @ApiPropertyOptional({
    description: 'Id of the inference server (worker) to use; default: the best online one.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(15)
  server?: string;

  @ApiPropertyOptional({
    description: 'Catalog id of the transcription model; default: the best one installed.',
    example: 'pocketsphinx-en',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  model?: string;

  @ApiPropertyOptional({
    description: 'Language spoken in the audio (ISO 639-1), when known.',
    example: 'en',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i, {
    message: 'language must be a language code such as "en" or "en-gb"',
  })
  language?: string;
}

/** Multipart form of `POST /api/transcribe`. */
export class TranscribeFormDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description: 'The recording (WAV, MP3, FLAC, OGG or WebM as the worker decodes them), at most 25 MB.',
  })
  file!: Blob;
}

/** What was said. */
export class TranscriptionDto {
  @ApiProperty({ example: 'Hello from Chorus.' })
  text!: string;

  @ApiProperty({ description: 'Language of the speech (ISO 639-1).', example: 'en' })
  language!: string;

  @ApiProperty({ description: 'Seconds of audio recognised.', example: 2.79 })
  duration!: number;

  @ApiProperty({ description: 'Catalog id of the model that transcribed it.', example: 'pocketsphinx-en' })
  model!: string;

  @ApiProperty({ description: 'Name of the worker that transcribed it.', example: 'Local' })
  serverName!: string;
}
