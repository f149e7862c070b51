import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'test/**/*.test.ts', 'renderer/src/**/*.test.ts'],
    exclude: ['node_modules', 'dist', 'test/e2e/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/setup/postgres-clusters.ts', 'test/setup/import-worker.ts'],
    setupFiles: ['test/setup/stop-shared-cluster.ts'],
  },
});
