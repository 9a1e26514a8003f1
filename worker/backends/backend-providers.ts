import type { Type } from '@nestjs/common';

import { EspeakBackend } from './espeak/espeak.backend';
import { EspeakModule } from './espeak/espeak.module';
import { PiperBackend } from './piper/piper.backend';
import { PiperModule } from './piper/piper.module';
import { PocketsphinxBackend } from './pocketsphinx/pocketsphinx.backend';
import { PocketsphinxModule } from './pocketsphinx/pocketsphinx.module';
import { WhisperBackend } from './whisper/whisper.backend';
import { WhisperModule } from './whisper/whisper.module';
import type { TtsBackend } from './backend.interface';

/**
 * The registered engines. Adding one = a folder `backends/<name>/` with its module and backend class, and one
 * line in each list below.
 */
export const BACKEND_MODULES = [EspeakModule, PiperModule, WhisperModule, PocketsphinxModule];
export const BACKEND_CLASSES: Type<TtsBackend>[] = [
  EspeakBackend,
  PiperBackend,
  WhisperBackend,
  PocketsphinxBackend,
];
