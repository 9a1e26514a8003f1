import { InferenceServerEntity } from '../fleet/inference-server.entity';

/** Every TypeORM entity of the main service. The migration drift test compares these with migrations/. */
export const ENTITIES = [InferenceServerEntity];
