import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import type { InferenceServerEntity, InferenceServerStatus } from '../inference-server.entity';

export class InferenceServerDto {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ example: 'http://gpu-box:8000' })
  url!: string;

  @ApiProperty()
  enabled!: boolean;

  @ApiProperty()
  priority!: number;

  @ApiProperty({ description: 'The worker seeded from INFERENCE_URL.' })
  isLocal!: boolean;

  @ApiProperty({ enum: ['unknown', 'online', 'offline'] })
  status!: InferenceServerStatus;

  @ApiProperty({ description: 'Effective device reported by the worker (cpu or cuda).', example: 'cpu' })
  device!: string;

  @ApiProperty()
  version!: string;

  @ApiProperty()
  lastCheck!: string;

  @ApiProperty()
  lastError!: string;

  @ApiProperty({ description: 'Whether the worker has a bearer token (the token itself is never shown).' })
  hasAuthToken!: boolean;

  @ApiProperty()
  created!: string;

  @ApiProperty()
  updated!: string;
}

export function toInferenceServerDto(entity: InferenceServerEntity): InferenceServerDto {
  return {
    id: entity.id,
    name: entity.name,
    url: entity.url,
    enabled: entity.enabled,
    priority: entity.priority,
    isLocal: entity.isLocal,
    status: entity.status,
    device: entity.device,
    version: entity.version,
    lastCheck: entity.lastCheck,
    lastError: entity.lastError,
    hasAuthToken: entity.authToken !== '',
    created: entity.created,
    updated: entity.updated,
  };
}

export class RegistrationTokenDto {
  @ApiProperty({ description: 'Bearer token for POST /api/inference-servers/register. Shown once.' })
  token!: string;

  @ApiProperty({ description: 'When the token stops working (ISO 8601), one hour after issue.' })
  expiresAt!: string;
}

export class RegisterWorkerDto {
  @ApiProperty({ example: 'gpu-box', maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @ApiProperty({
    example: 'http://10.0.0.7:8000',
    description: 'http(s) URL the main service reaches the worker at.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "The worker's INFERENCE_AUTH_TOKEN, if it has one.",
  })
  @IsOptional()
  @ValidateIf((_object, value) => value !== null)
  @IsString()
  @MaxLength(512)
  authToken?: string | null;
}

export class RegisteredWorkerDto {
  @ApiProperty({ type: InferenceServerDto })
  server!: InferenceServerDto;

  @ApiProperty({ description: 'False when an existing entry with the same URL was updated.' })
  created!: boolean;
}

export class UpdateInferenceServerDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    description: 'Higher first when several workers qualify.',
    minimum: -1000,
    maximum: 1000,
  })
  @IsOptional()
  @IsInt()
  @Min(-1000)
  @Max(1000)
  priority?: number;

  @ApiPropertyOptional({ description: 'New bearer token of the worker; empty string removes it.' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  authToken?: string;
}
