import { InferenceServerEntity } from '../fleet/inference-server.entity';
import { RegistrationTokenEntity } from '../fleet/registration-token.entity';
import { ApiKeyEntity } from '../users/api-keys/api-key.entity';
import { ParamEntity } from '../records/auth/param.entity';
import { SuperuserEntity } from '../users/superuser.entity';
import { UserEntity } from '../users/user.entity';
import { GenerationEntity } from '../generations/generation.entity';
import { VoiceSampleEntity } from '../voices/voice-sample.entity';
import { VoiceEntity } from '../voices/voice.entity';

/** Every TypeORM entity of the main service. The migration drift test compares these with migrations/. */
export const ENTITIES = [
  InferenceServerEntity,
  ParamEntity,
  SuperuserEntity,
  UserEntity,
  ApiKeyEntity,
  RegistrationTokenEntity,
  VoiceEntity,
  VoiceSampleEntity,
  GenerationEntity,
];
