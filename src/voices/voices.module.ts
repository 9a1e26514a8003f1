import { Module } from '@nestjs/common';
import { AudioDecodePool, defaultAudioDecodePoolOptions } from '../../worker/audio/decode-pool';
import { ModelsModule } from '../models/models.module';
import { SampleDecoder } from './sample-decoder';
import { VoicesController } from './voices.controller';
import { VoicesRepository } from './voices.repository';
import { VoicesService } from './voices.service';

/** Uploads waiting for a decode thread before the next one is answered 503. */
const DECODE_QUEUE_LIMIT = 8;

@Module({
  imports: [ModelsModule],
  controllers: [VoicesController],
  providers: [
    VoicesRepository,
    VoicesService,
    SampleDecoder,
    {
      provide: AudioDecodePool,
      useFactory: () => new AudioDecodePool(defaultAudioDecodePoolOptions(DECODE_QUEUE_LIMIT)),
    },
  ],
  exports: [VoicesService],
})
export class VoicesModule {}
