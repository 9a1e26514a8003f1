import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';

import { AuthModule } from './auth/auth.module';
import { BackendsModule } from './backends/backends.module';
import type { AppInfo } from './config/app-info';
import { ConfigModule } from './config/config.module';
import type { WorkerConfig } from './config/worker-config';
import { GenerateModule } from './generate/generate.module';
import { HealthModule } from './health/health.module';
import { loggerParams } from './logging/logger-options';
import { ModelsModule } from './models/models.module';
import { PackagesModule } from './packages/packages.module';
import { RuntimeModule } from './runtime/runtime.module';
import { TranscribeModule } from './transcribe/transcribe.module';

/** The inference worker. Built from an already validated configuration (see `main.ts`). */
@Module({})
export class AppModule {
  static forRoot(config: WorkerConfig, appInfo: AppInfo): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, appInfo),
        LoggerModule.forRoot(loggerParams(config.log.level)),
        AuthModule,
        RuntimeModule,
        PackagesModule,
        BackendsModule,
        ModelsModule,
        GenerateModule,
        TranscribeModule,
        HealthModule,
      ],
    };
  }
}
