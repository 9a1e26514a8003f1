import { mkdirSync } from 'node:fs';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../config/configuration';
import { dataSourceOptions } from './data-source-options';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        mkdirSync(config.pbDataDir, { recursive: true });
        return { ...dataSourceOptions(config.databaseFile), retryAttempts: 0 };
      },
    }),
  ],
})
export class DatabaseModule {}
