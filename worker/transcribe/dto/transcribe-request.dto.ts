import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { IsSafeRelativePath } from '../../common/safe-relative-path.validator';
import type { TranscribeRequest } from '../../contract/worker-api';

/** The text fields of `POST /transcribe` (multipart/form-data); the audio is the `file` (or `audio`) part. */
export class TranscribeRequestDto implements TranscribeRequest {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'Recogniser: whisper or pocketsphinx. Default: the backend of model_path, else a loaded Whisper model, ' +
      'else pocketsphinx',
    example: 'pocketsphinx',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @Matches(/^[a-z0-9][a-z0-9_-]*$/, { message: 'backend must be a backend name such as whisper' })
  backend?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Model folder `<backend>/<variant>` relative to the models directory (Whisper)',
    example: 'whisper/base',
  })
  @IsOptional()
  @IsString()
  @IsSafeRelativePath()
  model_path?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Spoken language (ISO 639-1 or BCP 47); omitted → detected by Whisper',
    example: 'en',
  })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  @Matches(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/, {
    message: 'language must be a language code such as en or en-US',
  })
  language?: string | null;
}
