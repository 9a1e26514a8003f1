import { Module } from '@nestjs/common';

import { WORKER_CONFIG } from '../../config/config.module';
import type { WorkerConfig } from '../../config/worker-config';
import { DeviceService } from '../../runtime/device.service';
import { loadTransformers, transformersInstalled } from './transformers-runtime';
import { WHISPER_OPTIONS, WhisperBackend, type WhisperOptions } from './whisper.backend';

@Module({
  providers: [
    WhisperBackend,
    {
      provide: WHISPER_OPTIONS,
      inject: [WORKER_CONFIG, DeviceService],
      useFactory: (config: WorkerConfig, device: DeviceService): WhisperOptions => ({
        modelsPath: config.inference.modelsPath,
        hubEndpoint: config.hub.endpoint,
        device: () => device.state().effective,
        loadTransformers,
        transformersInstalled,
      }),
    },
  ],
  exports: [WhisperBackend],
})
export class WhisperModule {}
