// Every test file: the shared throwaway PostgreSQL cluster it may have started (freshDatabase) stops
// when the file's tests are done, not when its worker process happens to exit.

import { afterAll } from 'vitest';
import { stopSharedCluster } from '../helpers/postgres';

afterAll(stopSharedCluster);
