import { Module } from '@nestjs/common';

import { TTS_BACKENDS, type TtsBackend } from './backend.interface';
import { BACKEND_CLASSES, BACKEND_MODULES } from './backend-providers';
import { BackendRegistry } from './backend-registry.service';
import { BackendsController } from './backends.controller';
import { BackendsService } from './backends.service';

/** Collects every engine behind {@link TTS_BACKENDS} and serves `/backends`. */
@Module({
  imports: [...BACKEND_MODULES],
  controllers: [BackendsController],
  providers: [
    {
      provide: TTS_BACKENDS,
      inject: BACKEND_CLASSES,
      useFactory: (...backends: TtsBackend[]) => backends,
    },
    BackendRegistry,
    BackendsService,
  ],
  exports: [BackendRegistry],
})
export class BackendsModule {}
