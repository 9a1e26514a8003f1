import { Module } from '@nestjs/common';

import { WORKER_CONFIG } from '../../config/config.module';
import type { WorkerConfig } from '../../config/worker-config';
import {
  defaultPocketsphinxConcurrency,
  POCKETSPHINX_OPTIONS,
  PocketsphinxBackend,
  type PocketsphinxOptions,
} from './pocketsphinx.backend';

@Module({
  providers: [
    PocketsphinxBackend,
    {
      provide: POCKETSPHINX_OPTIONS,
      inject: [WORKER_CONFIG],
      useFactory: (config: WorkerConfig): PocketsphinxOptions => ({
        binary: config.transcription.pocketsphinx.binary,
        modelDir: config.transcription.pocketsphinx.modelDir,
        searchPath: config.transcription.pocketsphinx.searchPath,
        concurrency: defaultPocketsphinxConcurrency(),
      }),
    },
  ],
  exports: [PocketsphinxBackend],
})
export class PocketsphinxModule {}
