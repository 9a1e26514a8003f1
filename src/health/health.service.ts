import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WORKER_API_VERSION } from '../../worker/contract/worker-api';
import { APP_CONFIG, AppConfig } from '../config/configuration';
import { FleetService } from '../fleet/fleet.service';
import { HealthDto, VersionDto } from './dto/health.dto';

/** Version of the main service's HTTP API. */
export const API_VERSION = '1';

@Injectable()
export class HealthService {
  private readonly version: VersionDto;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly fleet: FleetService,
  ) {
    const pkg = JSON.parse(readFileSync(join(config.rootDir, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    this.version = {
      name: pkg.name,
      version: pkg.version,
      apiVersion: API_VERSION,
      workerApiVersion: WORKER_API_VERSION,
    };
  }

  async health(): Promise<HealthDto> {
    let database: HealthDto['database']['status'] = 'ok';
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      database = 'error';
    }
    const fleet = this.fleet.summary();
    const status = database === 'error' ? 'error' : fleet.online > 0 ? 'ok' : 'degraded';
    return { status, database: { status: database }, fleet };
  }

  getVersion(): VersionDto {
    return this.version;
  }
}
