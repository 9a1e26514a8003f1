import { DynamicModule, Global, Module } from '@nestjs/common';

import { APP_INFO, type AppInfo } from './app-info';
import type { WorkerConfig } from './worker-config';

/** Injection token of the validated {@link WorkerConfig}. */
export const WORKER_CONFIG = Symbol('WORKER_CONFIG');

/**
 * Provides the configuration validated by `main.ts` before Nest starts (so a bad environment exits cleanly,
 * without a half-built application). Global: every module may inject it, none may read `process.env`.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: WorkerConfig, appInfo: AppInfo): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: WORKER_CONFIG, useValue: config },
        { provide: APP_INFO, useValue: appInfo },
      ],
      exports: [WORKER_CONFIG, APP_INFO],
    };
  }
}
