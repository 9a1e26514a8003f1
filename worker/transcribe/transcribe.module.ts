import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';

import {
  AudioDecodePool,
  defaultAudioDecodePoolOptions,
  type AudioDecodePoolOptions,
} from '../audio/decode-pool';
import { BackendsModule } from '../backends/backends.module';
import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';
import { AudioUploadInterceptor } from './audio-upload.interceptor';
import { TranscribeController } from './transcribe.controller';
import { TranscribeService } from './transcribe.service';

/** Options of the decode threads (tests point `entry` at a transpiled copy of `decode.thread.ts`). */
export const AUDIO_DECODE_OPTIONS = Symbol('AUDIO_DECODE_OPTIONS');

@Module({
  imports: [BackendsModule],
  controllers: [TranscribeController],
  providers: [
    TranscribeService,
    AudioUploadInterceptor,
    {
      provide: AUDIO_DECODE_OPTIONS,
      inject: [WORKER_CONFIG],
      useFactory: (config: WorkerConfig): AudioDecodePoolOptions =>
        defaultAudioDecodePoolOptions(config.inference.queueLimit),
    },
    {
      provide: AudioDecodePool,
      inject: [AUDIO_DECODE_OPTIONS],
      useFactory: (options: AudioDecodePoolOptions) => new AudioDecodePool(options),
    },
  ],
})
export class TranscribeModule implements OnApplicationShutdown {
  constructor(@Inject(AudioDecodePool) private readonly decoder: AudioDecodePool) {}

  async onApplicationShutdown(): Promise<void> {
    await this.decoder.close();
  }
}
