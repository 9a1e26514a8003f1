import { Module } from '@nestjs/common';

import { defaultEspeakOptions, ESPEAK_OPTIONS, EspeakBackend } from './espeak.backend';

@Module({
  providers: [EspeakBackend, { provide: ESPEAK_OPTIONS, useFactory: defaultEspeakOptions }],
  exports: [EspeakBackend],
})
export class EspeakModule {}
