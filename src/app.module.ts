import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { loggerParams } from './common/logging';
import { HttpExceptionFilter } from './common/errors/http-exception.filter';
import { ConfigModule } from './config/config.module';
import { AppConfig } from './config/configuration';
import { DatabaseModule } from './database/database.module';
import { FleetModule } from './fleet/fleet.module';
import { GenerationsModule } from './generations/generations.module';
import { HealthModule } from './health/health.module';
import { ModelsModule } from './models/models.module';
import { RecordsModule } from './records/records.module';
import { TranscriptionModule } from './transcription/transcription.module';
import { VoicesModule } from './voices/voices.module';
import { ApiKeysModule } from './users/api-keys/api-keys.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerParams(config.logLevel)),
        DatabaseModule,
        RecordsModule.forRoot(config.records),
        ApiKeysModule,
        FleetModule,
        HealthModule,
        ModelsModule,
        VoicesModule,
        GenerationsModule,
        TranscriptionModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: HttpExceptionFilter }],
    };
  }
}
