import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsObject, IsString, Matches, MaxLength } from 'class-validator';

import { IsSafeRelativePath } from '../../common/safe-relative-path.validator';
import type {
  CatalogEntry,
  CatalogFile,
  DeleteModelResponse,
  InstalledModel,
  InstalledModelFile,
  InstalledModelManifest,
  ModelInstallCheck,
  PullEvent,
  PullRequest,
  PullStatus,
  UnloadModelRequest,
  UnloadModelResponse,
} from '../../contract/worker-api';

/** Documentation of a catalog file (the store validates files itself, see `pull-plan.ts`). */
export class CatalogFileDto implements CatalogFile {
  @ApiProperty({ example: 'en/en_US/joe/medium/en_US-joe-medium.onnx' })
  path!: string;

  @ApiPropertyOptional({ description: "Repository of this file when it is not the entry's own" })
  repo?: string;

  @ApiPropertyOptional({ default: 'main' })
  revision?: string;

  @ApiPropertyOptional({ example: 63201294 })
  size?: number;

  @ApiPropertyOptional({ description: 'Lower-case hex sha256; without it the hub ETag is used' })
  sha256?: string;

  @ApiPropertyOptional({ description: 'Path inside the variant folder (default: basename of path)' })
  target?: string;
}

/** Documentation of a catalog entry; fields beyond those the store needs are kept as sent. */
export class CatalogEntryDto {
  @ApiProperty({ example: 'piper-en_US-joe-medium' })
  id!: string;

  @ApiProperty({ example: 'piper' })
  backend!: string;

  @ApiProperty({ example: 'en_US-joe-medium' })
  variant!: string;

  @ApiProperty({ type: String, nullable: true, example: 'rhasspy/piper-voices' })
  repo!: string | null;

  @ApiPropertyOptional({ default: 'main' })
  revision?: string;

  @ApiProperty({ type: [CatalogFileDto] })
  files!: CatalogFileDto[];

  @ApiProperty({ description: 'Total size in bytes' })
  size!: number;
}

export class PullRequestDto implements PullRequest {
  @ApiProperty({ description: 'Hub base URL', example: 'https://huggingface.co' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  url!: string;

  @ApiProperty({
    description: '`<backend>/<variant>`; must match the manifest',
    example: 'piper/en_US-joe-medium',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  dest_path!: string;

  @ApiProperty({
    type: CatalogEntryDto,
    description: 'The catalog entry, with its files; stored in the installed manifest.json as sent',
  })
  @IsObject()
  manifest!: CatalogEntry;
}

export class PullEventDto implements PullEvent {
  @ApiProperty({ minimum: 0, maximum: 100, description: 'Integer percent of the total bytes' })
  progress!: number;

  @ApiProperty({ enum: ['downloading', 'installing', 'complete', 'error'] })
  status!: PullStatus;

  @ApiProperty({ example: '12.3 MB/s' })
  speed!: string;

  @ApiPropertyOptional({ description: 'Repository path of the file being downloaded' })
  file?: string;

  @ApiPropertyOptional()
  downloaded?: number;

  @ApiPropertyOptional()
  total?: number;

  @ApiPropertyOptional({ description: 'Why the pull failed (status error)' })
  message?: string;
}

export class InstalledModelDto implements InstalledModel {
  @ApiProperty({ example: 'piper' })
  backend!: string;

  @ApiProperty({ example: 'en_US-joe-medium' })
  variant!: string;

  @ApiProperty({ example: 'piper/en_US-joe-medium', description: '`model_path` of generate requests' })
  path!: string;

  @ApiProperty({ description: 'Catalog id' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ description: 'Bytes on disk' })
  size!: number;

  @ApiProperty({ format: 'date-time' })
  installedAt!: string;

  @ApiProperty()
  loaded!: boolean;
}

export class InstalledModelFileDto implements InstalledModelFile {
  @ApiProperty()
  target!: string;

  @ApiProperty()
  path!: string;

  @ApiProperty()
  repo!: string;

  @ApiProperty()
  revision!: string;

  @ApiProperty()
  size!: number;

  @ApiProperty()
  sha256!: string;
}

export class ModelInstallCheckDto extends InstalledModelDto implements ModelInstallCheck {
  @ApiProperty({ enum: [true] })
  installed!: true;

  @ApiProperty({ type: [InstalledModelFileDto] })
  files!: InstalledModelFileDto[];

  @ApiProperty({ description: 'Whether every sha256 was recomputed (`?verify=true`)' })
  verified!: boolean;
}

export class DeleteModelResponseDto implements DeleteModelResponse {
  @ApiProperty()
  backend!: string;

  @ApiProperty()
  variant!: string;

  @ApiProperty()
  path!: string;

  @ApiProperty({ description: 'Whether the model was loaded and was unloaded first' })
  unloaded!: boolean;
}

export class UnloadModelRequestDto implements UnloadModelRequest {
  @ApiProperty({ example: 'piper' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @Matches(/^[a-z0-9][a-z0-9_-]*$/, { message: 'backend must be a backend name such as piper' })
  backend!: string;

  @ApiProperty({ example: 'piper/en_US-joe-medium', description: 'Model key (`<backend>/<variant>`)' })
  @IsString()
  @IsSafeRelativePath()
  model_path!: string;
}

export class UnloadModelResponseDto implements UnloadModelResponse {
  @ApiProperty({
    enum: ['unloaded', 'scheduled', 'not_loaded'],
    description: '`scheduled`: requests are running on it; it is unloaded when the last one ends',
  })
  status!: UnloadModelResponse['status'];
}

/** Maps a manifest to its `GET /models` element. */
export function toInstalledModel(manifest: InstalledModelManifest, loaded: boolean): InstalledModel {
  return {
    backend: manifest.backend,
    variant: manifest.variant,
    path: `${manifest.backend}/${manifest.variant}`,
    id: manifest.entry.id,
    name: typeof manifest.entry.name === 'string' ? manifest.entry.name : manifest.entry.id,
    size: manifest.size,
    installedAt: manifest.installedAt,
    loaded,
  };
}
