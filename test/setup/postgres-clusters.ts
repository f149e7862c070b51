// Vitest global setup: the throwaway PostgreSQL clusters tests start (test/helpers/postgres.ts) are
// listed in a registry for the run, and whatever a worker left running is stopped at the end.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PG_REGISTRY_ENV, stopRegisteredClusters } from '../helpers/postgres';

export default function setup(): () => Promise<void> {
  const registry = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-pg-registry-'));
  process.env[PG_REGISTRY_ENV] = registry;
  return async () => {
    const left = await stopRegisteredClusters(registry);
    if (left > 0) console.warn(`Stopped ${left} PostgreSQL test cluster(s) a test process left running.`);
    fs.rmSync(registry, { recursive: true, force: true });
  };
}
