import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { CatalogEntryDto } from './catalog-entry.dto';

export class ModelWorkerDto {
  @ApiProperty()
  serverId!: string;

  @ApiProperty()
  serverName!: string;

  @ApiProperty({ description: 'Effective device of the worker (cpu or cuda).' })
  device!: string;

  @ApiProperty({ description: "Loaded in the worker's memory right now." })
  loaded!: boolean;

  @ApiPropertyOptional({
    description: 'When the model was installed on this worker (absent for embedded engines).',
  })
  installedAt?: string;
}

/** A catalog model installed on at least one online worker (SPEC §4.1 "installed models"). */
export class InstalledModelDto {
  @ApiProperty({ description: 'Catalog id.' })
  id!: string;

  @ApiProperty({ type: CatalogEntryDto })
  entry!: CatalogEntryDto;

  @ApiProperty({ type: [ModelWorkerDto] })
  workers!: ModelWorkerDto[];
}

export class PullModelDto {
  @ApiPropertyOptional({
    type: [String],
    description: 'Inference server ids to install on; default: every online worker that lacks the model.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  serverIds?: string[];
}

export class PullJobRefDto {
  @ApiProperty({ description: 'Job id, followed through GET /api/jobs/stream.' })
  id!: string;

  @ApiProperty()
  serverId!: string;
}

export class PullStartedDto {
  @ApiProperty({ type: [PullJobRefDto] })
  jobs!: PullJobRefDto[];
}

export class ModelDeletionResultDto {
  @ApiProperty()
  serverId!: string;

  @ApiProperty()
  serverName!: string;

  @ApiProperty()
  ok!: boolean;

  @ApiPropertyOptional({ description: 'Why this worker could not remove the model.' })
  error?: string;
}

export class ModelDeletionDto {
  @ApiProperty({ type: [ModelDeletionResultDto] })
  results!: ModelDeletionResultDto[];
}

/** A `GET /api/models/events` ping: refresh the installed list. */
export class ModelEventDto {
  @ApiProperty({ enum: ['installed', 'removed'] })
  type!: 'installed' | 'removed';

  @ApiProperty({ description: 'Catalog id.' })
  model!: string;

  @ApiProperty()
  serverId!: string;
}
