import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { ApiKeyEntity } from '../api-key.entity';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'Home Assistant', maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @ApiPropertyOptional({
    description: 'Days until the key expires; omit for a key that never expires.',
    minimum: 1,
    maximum: 3650,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  expiresInDays?: number;
}

export class ApiKeyDto {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ description: 'First characters of the key, to recognise it.', example: 'chorus_Ab3dE' })
  prefix!: string;

  @ApiProperty({ description: 'Last use (PocketBase date format), or empty.' })
  lastUsed!: string;

  @ApiProperty({ description: 'Expiry (PocketBase date format), or empty for never.' })
  expires!: string;

  @ApiProperty()
  created!: string;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The key itself. Shown only once: store it now.', example: 'chorus_…' })
  key!: string;
}

export function toApiKeyDto(entity: ApiKeyEntity): ApiKeyDto {
  return {
    id: entity.id,
    name: entity.name,
    prefix: entity.prefix,
    lastUsed: entity.lastUsed,
    expires: entity.expires,
    created: entity.created,
  };
}
