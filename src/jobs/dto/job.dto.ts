import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const JOB_STATUSES = [
  'queued',
  'downloading',
  'installing',
  'complete',
  'error',
  'cancelled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** One model pull on one worker (SPEC §2 "Job"): in memory only, gone after a restart. */
export class JobDto {
  @ApiProperty({ example: 'j8x2k1m0q9z7c3a' })
  id!: string;

  @ApiProperty({ description: 'Catalog id of the model being pulled.' })
  model!: string;

  @ApiProperty({ description: 'Inference server id.' })
  serverId!: string;

  @ApiProperty()
  serverName!: string;

  @ApiProperty({ enum: JOB_STATUSES })
  status!: JobStatus;

  @ApiProperty({ minimum: 0, maximum: 100 })
  progress!: number;

  @ApiProperty({ example: '12.3 MB/s' })
  speed!: string;

  @ApiPropertyOptional({ description: 'File being downloaded.' })
  file?: string;

  @ApiPropertyOptional()
  downloaded?: number;

  @ApiPropertyOptional()
  total?: number;

  @ApiPropertyOptional({ description: 'Why the job failed.' })
  error?: string;

  @ApiProperty()
  created!: string;

  @ApiProperty()
  updated!: string;
}

/** A `GET /api/jobs/stream` event: the current state of every job first (`snapshot`), then one job per change. */
export class JobStreamEventDto {
  @ApiProperty({ enum: ['snapshot', 'job'] })
  type!: 'snapshot' | 'job';

  @ApiPropertyOptional({ type: [JobDto] })
  jobs?: JobDto[];

  @ApiPropertyOptional({ type: JobDto })
  job?: JobDto;
}

export function isTerminal(status: JobStatus): boolean {
  return status === 'complete' || status === 'error' || status === 'cancelled';
}
