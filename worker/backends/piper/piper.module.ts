import { Module } from '@nestjs/common';

import { defaultPiperOptions, PIPER_OPTIONS, PiperBackend } from './piper.backend';

@Module({
  providers: [PiperBackend, { provide: PIPER_OPTIONS, useFactory: defaultPiperOptions }],
  exports: [PiperBackend],
})
export class PiperModule {}
