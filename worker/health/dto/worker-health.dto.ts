import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import type {
  InferenceDevice,
  RegistrationState,
  RegistrationStatus,
  WorkerHealth,
} from '../../contract/worker-api';
import { LoadedModelInfoDto } from '../../runtime/dto/runtime.dto';

export class RegistrationStateDto implements RegistrationState {
  @ApiProperty({ enum: ['disabled', 'pending', 'registered', 'failed'] })
  status!: RegistrationStatus;

  @ApiProperty()
  attempts!: number;

  @ApiPropertyOptional()
  serviceUrl?: string;

  @ApiPropertyOptional()
  publicUrl?: string;

  @ApiPropertyOptional()
  error?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  at?: string;
}

export class WorkerHealthDto implements WorkerHealth {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';

  @ApiProperty({ enum: ['cpu', 'cuda'], description: 'Device inference runs on' })
  device!: InferenceDevice;

  @ApiProperty({ enum: ['cpu', 'cuda'], description: 'INFERENCE_DEVICE' })
  requestedDevice!: InferenceDevice;

  @ApiPropertyOptional({ description: 'Why the effective device differs from the requested one' })
  deviceNote?: string;

  @ApiProperty({ type: [LoadedModelInfoDto] })
  loadedModels!: LoadedModelInfoDto[];

  @ApiProperty({ example: '0.1.0' })
  version!: string;

  @ApiProperty({ example: '1' })
  apiVersion!: string;

  @ApiProperty({ type: RegistrationStateDto })
  registration!: RegistrationStateDto;
}
