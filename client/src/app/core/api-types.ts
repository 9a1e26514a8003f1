import { Observable } from 'rxjs';
import {
  generateSpeech$Wav,
  getCatalog,
  getHealth,
  getVersion,
  type GenerateSpeech$Wav$Params,
  type StrictHttpResponse,
} from '../api';

/**
 * Types used by the app, derived from the GENERATED client's operations rather than from schema names,
 * so the app only depends on operationIds when the real spec replaces the provisional one.
 */
type ResponseBody<F> = F extends (...args: never[]) => Observable<StrictHttpResponse<infer R>> ? R : never;

export type Health = ResponseBody<typeof getHealth>;
export type VersionInfo = ResponseBody<typeof getVersion>;
export type CatalogEntry = ResponseBody<typeof getCatalog>[number];
export type PresetVoice = NonNullable<CatalogEntry['presetVoices']>[number];
export type GenerateSpeechRequest = GenerateSpeech$Wav$Params['body'];

/** Error body the API sends: `{status, message, data: {field: {code, message}}}`. */
export interface ApiErrorBody {
  status: number;
  message: string;
  data?: Record<string, { code: string; message: string }>;
}

export { generateSpeech$Wav };
