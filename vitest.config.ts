import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'test/**/*.test.ts', 'renderer/src/**/*.test.ts'],
    exclude: ['node_modules', 'dist', 'test/e2e/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores: one on a 2-core CI machine, where the files
    // spend much of their time waiting on sockets and child processes (load ~0.7). Two halve the run.
    maxWorkers: 2,
    globalSetup: ['test/setup/postgres-clusters.ts', 'test/setup/import-worker.ts'],
    setupFiles: ['test/setup/stop-shared-cluster.ts'],
  },
});
