import type { Type } from '@nestjs/common';

import { EspeakBackend } from './espeak/espeak.backend';
import { EspeakModule } from './espeak/espeak.module';
import type { TtsBackend } from './backend.interface';

/**
 * The registered engines. Adding one = a folder `backends/<name>/` with its module and backend class, and one
 * line in each list below.
 */
export const BACKEND_MODULES = [EspeakModule];
export const BACKEND_CLASSES: Type<TtsBackend>[] = [EspeakBackend];
