import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CatalogEntry, CatalogFile, ModelType, PresetVoice } from '../../../worker/contract/worker-api';

const MODEL_TYPES: ModelType[] = ['preset', 'cloning', 'design', 'transcription', 'api'];

export class CatalogFileDto implements CatalogFile {
  @ApiProperty({ example: 'en/en_US/joe/medium/en_US-joe-medium.onnx' })
  path!: string;

  @ApiPropertyOptional({ description: "Repository holding this file when it is not the entry's own." })
  repo?: string;

  @ApiPropertyOptional({ example: 'main' })
  revision?: string;

  @ApiPropertyOptional({ description: 'Size in bytes.' })
  size?: number;

  @ApiPropertyOptional({ description: 'Lower-case hex sha256.' })
  sha256?: string;

  @ApiPropertyOptional({
    description: 'File name inside the installed variant folder (default: basename of path).',
  })
  target?: string;
}

export class PresetVoiceDto implements PresetVoice {
  @ApiProperty({ example: 'en-us' })
  id!: string;

  @ApiProperty({ example: 'English (America)' })
  name!: string;

  @ApiProperty({ example: 'en' })
  language!: string;

  @ApiPropertyOptional({ enum: ['female', 'male', 'neutral'] })
  gender?: 'female' | 'male' | 'neutral';

  @ApiPropertyOptional()
  speakerId?: number;
}

/** A catalog entry (SPEC §2), returned exactly as written in catalog.json. */
export class CatalogEntryDto implements CatalogEntry {
  @ApiProperty({ example: 'piper-en-us-joe-medium' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ example: 'piper' })
  backend!: string;

  @ApiProperty()
  backendDisplayName!: string;

  @ApiProperty()
  backendDescription!: string;

  @ApiProperty({ description: 'Folder of the installed model: `<models_dir>/<backend>/<variant>/`.' })
  variant!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Hub repository, null for embedded engines.' })
  repo!: string | null;

  @ApiPropertyOptional()
  revision?: string;

  @ApiProperty({ type: [CatalogFileDto] })
  files!: CatalogFileDto[];

  @ApiProperty({ description: 'Total size in bytes.' })
  size!: number;

  @ApiProperty({ enum: MODEL_TYPES, isArray: true })
  types!: ModelType[];

  @ApiPropertyOptional({ type: [PresetVoiceDto] })
  presetVoices?: PresetVoiceDto[];

  @ApiPropertyOptional({ description: 'Longest total cloning reference, in seconds.' })
  maxReferenceDuration?: number;

  @ApiPropertyOptional()
  supportsInstruct?: boolean;

  @ApiPropertyOptional()
  supportsEffects?: boolean;

  @ApiPropertyOptional()
  gated?: boolean;

  @ApiProperty({ example: 'CC0-1.0' })
  license!: string;

  @ApiPropertyOptional({ description: 'Whether commercial use is allowed; absent when unknown.' })
  commercial?: boolean;

  @ApiProperty({ enum: ['cpu', 'gpu'] })
  hardware!: 'cpu' | 'gpu';

  @ApiPropertyOptional({ description: 'Minimum GPU memory in GB, when documented upstream.' })
  minVram?: number;

  @ApiProperty({ type: [String], description: 'ISO 639-1 codes; "*" stands for 100+ languages.' })
  languages!: string[];

  @ApiPropertyOptional()
  recommended?: boolean;

  @ApiPropertyOptional({ description: 'Never offered by the add-model assistant.' })
  legacy?: boolean;

  @ApiPropertyOptional({ description: 'Family the Models page groups variants under.' })
  family?: string;

  @ApiPropertyOptional({ description: 'Embedded engine: always installed, nothing to download.' })
  embedded?: boolean;
}
