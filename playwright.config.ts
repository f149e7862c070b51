// Browser tests: Debian's Chromium against `portcullis serve` serving the built renderer on 127.0.0.1.
// Build first (`npm run build`): the global setup starts the server from dist/ and builds nothing.

import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '*.spec.ts',
  outputDir: 'test-results/e2e',
  globalSetup: './test/e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  // Timing budgets are measured on a quiet machine: after every other test, one at a time. Beside another
  // worker's scan (the same server process answers both) a cold load took 2.5 s on the 2-core CI machine.
  projects: [
    { name: 'app', grepInvert: /@budget/ },
    { name: 'budgets', grep: /@budget/, dependencies: ['app'], workers: 1, fullyParallel: false },
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
