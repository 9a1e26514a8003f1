import { Observable } from 'rxjs';
import {
  generateSpeech$Wav,
  getCatalog,
  getHealth,
  getVersion,
  addVoiceSample,
  listApiKeys,
  createApiKey,
  listGenerations,
  listInferenceServers,
  listInstalledModels,
  listJobs,
  listVoices,
  createRegistrationToken,
  deleteModel,
  streamJobs,
  streamModelEvents,
  transcribeAudio,
  type GenerateSpeech$Wav$Params,
  type ListGenerations$Params,
  type ListVoices$Params,
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

export type InstalledModel = ResponseBody<typeof listInstalledModels>[number];
export type ModelWorker = InstalledModel['workers'][number];
export type ModelDeletion = ResponseBody<typeof deleteModel>;
export type Job = ResponseBody<typeof listJobs>[number];
export type JobStatus = Job['status'];
export type JobStreamEvent = ResponseBody<typeof streamJobs>;
export type ModelEvent = ResponseBody<typeof streamModelEvents>;
export type InferenceServer = ResponseBody<typeof listInferenceServers>[number];
export type RegistrationToken = ResponseBody<typeof createRegistrationToken>;
export type ApiKey = ResponseBody<typeof listApiKeys>[number];
export type CreatedApiKey = ResponseBody<typeof createApiKey>;
export type VoiceList = ResponseBody<typeof listVoices>;
export type Voice = VoiceList['items'][number];
export type VoiceSample = ResponseBody<typeof addVoiceSample>;
export type VoiceScope = NonNullable<ListVoices$Params['scope']>;
export type GenerationList = ResponseBody<typeof listGenerations>;
export type Generation = GenerationList['items'][number];
export type GenerationFilter = ListGenerations$Params;
export type Transcription = ResponseBody<typeof transcribeAudio>;

/** Error body the API sends: `{status, message, data: {field: {code, message}}}`. */
export interface ApiErrorBody {
  status: number;
  message: string;
  data?: Record<string, { code: string; message: string }>;
}

/** SSE endpoints (paths for EventSource). */
export const JOBS_STREAM_PATH = streamJobs.PATH;
export const MODEL_EVENTS_PATH = streamModelEvents.PATH;

export { generateSpeech$Wav };
