import { ApiProperty } from '@nestjs/swagger';

import type { LoadedModelInfo, ModelQueueStats } from '../../contract/worker-api';

export class LoadedModelInfoDto implements LoadedModelInfo {
  @ApiProperty({ example: 'espeak' })
  backend!: string;

  @ApiProperty({
    description: '`<backend>/<variant>`, or the backend name for embedded engines',
    example: 'espeak',
  })
  modelPath!: string;

  @ApiProperty({ description: 'Resident memory attributed to the model, in bytes (estimate)' })
  memoryBytes!: number;

  @ApiProperty({ format: 'date-time' })
  loadedAt!: string;

  @ApiProperty({ format: 'date-time' })
  lastUsedAt!: string;

  @ApiProperty({ description: 'Requests using the model right now' })
  inFlight!: number;
}

export class ModelQueueStatsDto implements ModelQueueStats {
  @ApiProperty()
  modelPath!: string;

  @ApiProperty({ description: 'Requests being served' })
  active!: number;

  @ApiProperty({ description: 'Requests waiting for a slot' })
  waiting!: number;

  @ApiProperty({ description: 'Requests served at once' })
  concurrency!: number;

  @ApiProperty({ description: 'Most requests allowed to wait (INFERENCE_QUEUE_LIMIT); one more gets 503' })
  limit!: number;
}
