import { InferenceServerEntity } from '../fleet/inference-server.entity';
import { ParamEntity } from '../records/auth/param.entity';
import { SuperuserEntity } from '../users/superuser.entity';
import { UserEntity } from '../users/user.entity';

/** Every TypeORM entity of the main service. The migration drift test compares these with migrations/. */
export const ENTITIES = [InferenceServerEntity, ParamEntity, SuperuserEntity, UserEntity];
