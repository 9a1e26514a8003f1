import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import type {
  BackendCapabilities,
  BackendDependencyState,
  BackendInfo,
  BackendStatus,
  BackendVoice,
} from '../../contract/worker-api';
import { LoadedModelInfoDto, ModelQueueStatsDto } from '../../runtime/dto/runtime.dto';

export class BackendCapabilitiesDto implements BackendCapabilities {
  @ApiProperty({ description: 'Speaks with built-in (preset) voices' })
  preset!: boolean;

  @ApiProperty({ description: 'Clones a voice from reference audio' })
  cloning!: boolean;

  @ApiProperty({ description: 'Transcribes audio' })
  transcription!: boolean;

  @ApiProperty({ description: 'Streams audio sentence by sentence' })
  streaming!: boolean;
}

export class BackendInfoDto implements BackendInfo {
  @ApiProperty({ example: 'espeak' })
  name!: string;

  @ApiProperty({ example: 'eSpeak NG' })
  displayName!: string;

  @ApiProperty({ type: BackendCapabilitiesDto })
  capabilities!: BackendCapabilitiesDto;

  @ApiProperty()
  dependenciesInstalled!: boolean;

  @ApiProperty({ type: [LoadedModelInfoDto] })
  loadedModels!: LoadedModelInfoDto[];
}

export class BackendDependencyStateDto implements BackendDependencyState {
  @ApiProperty()
  installed!: boolean;

  @ApiProperty({ type: [String] })
  packages!: string[];

  @ApiPropertyOptional()
  detail?: string;
}

export class BackendStatusDto extends BackendInfoDto implements BackendStatus {
  @ApiProperty()
  description!: string;

  @ApiProperty({ description: 'Ships inside the worker: nothing to download, never evicted' })
  embedded!: boolean;

  @ApiProperty({ description: 'At least one model of the backend is loaded' })
  loaded!: boolean;

  @ApiProperty({ description: 'Memory of its loaded models, in bytes (estimate)' })
  memoryBytes!: number;

  @ApiProperty({ type: BackendDependencyStateDto })
  dependencies!: BackendDependencyStateDto;

  @ApiProperty({ type: [ModelQueueStatsDto] })
  queues!: ModelQueueStatsDto[];
}

export class BackendVoiceDto implements BackendVoice {
  @ApiProperty({ description: 'Value for `voice_path`', example: 'en-us' })
  id!: string;

  @ApiProperty({ example: 'English (America)' })
  name!: string;

  @ApiProperty({ example: 'en-us' })
  language!: string;

  @ApiPropertyOptional({ enum: ['female', 'male', 'neutral'] })
  gender?: 'female' | 'male' | 'neutral';

  @ApiPropertyOptional()
  speakerId?: number;

  @ApiPropertyOptional({ type: [String], example: ['en-us', 'en'] })
  languages?: string[];
}
