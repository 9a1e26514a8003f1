import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { RecordsAuth1763800000000 } from './1763800000000-records-auth';
import { ApiKeysRegistrationTokens1763850000000 } from './1763850000000-api-keys-registration-tokens';
import { VoicesGenerations1763950000000 } from './1763950000000-voices-generations';

/** Every migration, oldest first. Listed explicitly so the built app never depends on file globbing. */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  RecordsAuth1763800000000,
  ApiKeysRegistrationTokens1763850000000,
  VoicesGenerations1763950000000,
];
