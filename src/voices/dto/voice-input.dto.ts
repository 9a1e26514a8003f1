import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { formBoolean, formJsonObject, formStringList, formTrim } from '../../common/forms';

export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 32;
export const LANGUAGE_PATTERN = /^([a-z]{2,3}(-[a-z0-9]{2,8})*)?$/i;

/**
 * Fields of `POST /api/voices` (multipart/form-data or JSON). The catalog checks (model exists and speaks, preset
 * voice of that model, language supported) are made by the service.
 */
export class CreateVoiceDto {
  @ApiProperty({ description: 'Display name.', maxLength: 100, example: 'Narrator' })
  @Transform(({ value }) => formTrim(value))
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @ApiPropertyOptional({ maxLength: 1000, example: 'Calm, for audiobooks.' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({
    description:
      "ISO 639-1 code (or a regional tag such as en-gb) the voice speaks; must be supported by the model. Default: the preset voice's language.",
    example: 'en',
  })
  @IsOptional()
  @Transform(({ value }) => formTrim(value))
  @IsString()
  @MaxLength(35)
  @Matches(LANGUAGE_PATTERN, { message: 'language must be a language code such as "en" or "en-gb"' })
  language?: string;

  @ApiProperty({ description: 'Catalog id of the model the voice speaks with.', example: 'espeak-ng' })
  @Transform(({ value }) => formTrim(value))
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  model!: string;

  @ApiPropertyOptional({
    description: 'Id of one of the preset voices of the model (required for preset-only models).',
    example: 'en-us',
  })
  @IsOptional()
  @Transform(({ value }) => formTrim(value))
  @IsString()
  @MaxLength(100)
  presetVoice?: string;

  @ApiPropertyOptional({
    description: 'Model-specific options (a JSON object; in multipart forms, its JSON text).',
    type: 'object',
    additionalProperties: true,
  })
  @IsOptional()
  @Transform(({ value }) => formJsonObject(value))
  @IsObject()
  options?: Record<string, unknown>;

  @ApiPropertyOptional({
    description: `Tags (at most ${MAX_TAGS}, each at most ${MAX_TAG_LENGTH} characters). In forms: repeated fields, a JSON array or comma-separated text.`,
    type: [String],
    example: ['calm', 'narration'],
  })
  @IsOptional()
  @Transform(({ value }) => formStringList(value))
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  @IsString({ each: true })
  @MaxLength(MAX_TAG_LENGTH, { each: true })
  tags?: string[];

  @ApiPropertyOptional({ description: 'Readable (not writable) by every signed-in user.', default: false })
  @IsOptional()
  @Transform(({ value }) => formBoolean(value))
  @IsBoolean()
  public?: boolean;
}

/** `PUT /api/voices/:id`: any subset of the create fields; `removeAvatar` drops the avatar. */
export class UpdateVoiceDto extends PartialType(CreateVoiceDto) {
  @ApiPropertyOptional({ description: 'Remove the current avatar.', default: false })
  @IsOptional()
  @Transform(({ value }) => formBoolean(value))
  @IsBoolean()
  removeAvatar?: boolean;
}

/** Multipart form of `POST /api/voices` (documentation of the form fields; validated as CreateVoiceDto). */
export class CreateVoiceFormDto {
  @ApiProperty({ maxLength: 100 })
  name!: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  description?: string;

  @ApiPropertyOptional({ description: 'ISO 639-1 code or regional tag.' })
  language?: string;

  @ApiProperty({ description: 'Catalog id of the model.' })
  model!: string;

  @ApiPropertyOptional({ description: 'Preset voice id of the model.' })
  presetVoice?: string;

  @ApiPropertyOptional({ description: 'Model options as JSON text.' })
  options?: string;

  @ApiPropertyOptional({ type: [String] })
  tags?: string[];

  @ApiPropertyOptional()
  public?: boolean;

  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description: 'PNG, JPEG, GIF or WebP image, at most 5 MB.',
  })
  avatar?: Blob;
}

/** Multipart form of `PUT /api/voices/:id` (every field optional). */
export class UpdateVoiceFormDto extends PartialType(CreateVoiceFormDto) {
  @ApiPropertyOptional({ description: 'Remove the current avatar.' })
  removeAvatar?: boolean;
}

/** Multipart form of `POST /api/voices/:id/samples`. */
export class AddVoiceSampleFormDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'The recording (WAV), at most 20 MB.' })
  audio!: Blob;

  @ApiPropertyOptional({ description: 'What is said in the recording.', maxLength: 5000 })
  transcript?: string;
}

/** Text fields of `POST /api/voices/:id/samples` (the file comes as the `audio` part). */
export class AddVoiceSampleDto {
  @ApiPropertyOptional({ description: 'What is said in the recording.', maxLength: 5000 })
  @IsOptional()
  @Transform(({ value }) => formTrim(value))
  @IsString()
  @MaxLength(5000)
  transcript?: string;
}

export const VOICE_SCOPES = ['all', 'mine', 'public'] as const;
export type VoiceScope = (typeof VOICE_SCOPES)[number];

/** Query of `GET /api/voices`. */
export class ListVoicesQueryDto {
  @ApiPropertyOptional({ description: 'Text searched in the name, description and tags.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({
    description: 'Only voices of this language (a base code also matches regional tags).',
  })
  @IsOptional()
  @IsString()
  @Matches(LANGUAGE_PATTERN, { message: 'language must be a language code such as "en" or "en-gb"' })
  language?: string;

  @ApiPropertyOptional({ description: 'Only voices of this catalog model.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  model?: string;

  @ApiPropertyOptional({
    description: 'all = own and public voices, mine = own only, public = public ones (anyone’s).',
    enum: VOICE_SCOPES,
    default: 'all',
  })
  @IsOptional()
  @IsIn(VOICE_SCOPES)
  scope?: VoiceScope;

  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  perPage?: number;
}
