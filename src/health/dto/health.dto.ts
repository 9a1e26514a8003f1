import { ApiProperty } from '@nestjs/swagger';

export class DatabaseHealthDto {
  @ApiProperty({ enum: ['ok', 'error'] })
  status!: 'ok' | 'error';
}

export class FleetHealthDto {
  @ApiProperty({ description: 'Enabled workers whose last health probe succeeded.' })
  online!: number;

  @ApiProperty({ description: 'Enabled workers.' })
  total!: number;
}

export class HealthDto {
  @ApiProperty({
    enum: ['ok', 'degraded', 'error'],
    description:
      '`ok`: database up and at least one worker online; `degraded`: no worker online; `error`: database down.',
  })
  status!: 'ok' | 'degraded' | 'error';

  @ApiProperty({ type: DatabaseHealthDto })
  database!: DatabaseHealthDto;

  @ApiProperty({ type: FleetHealthDto })
  fleet!: FleetHealthDto;
}

export class VersionDto {
  @ApiProperty({ example: 'chorus' })
  name!: string;

  @ApiProperty({ example: '0.1.0', description: 'Version of the service (package.json).' })
  version!: string;

  @ApiProperty({ example: '1', description: 'Version of the HTTP API; bumped on incompatible changes.' })
  apiVersion!: string;

  @ApiProperty({ example: '1', description: 'Version of the worker API this service speaks.' })
  workerApiVersion!: string;
}
