import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { RecordsAuth1763800000000 } from './1763800000000-records-auth';

/** Every migration, oldest first. Listed explicitly so the built app never depends on file globbing. */
export const MIGRATIONS = [InitialSchema1763700000000, RecordsAuth1763800000000];
