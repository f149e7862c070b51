// `npm test`: the one command that checks everything — lint, type check, build, unit and
// integration tests (vitest, including the electronegativity check of the desktop shell), the
// packaging configuration (electron-builder against a stub Electron), then the browser tests
// (Playwright on Debian's Chromium).
// Every step runs; the command fails if any did. Browser tests need the build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { addonAbi, buildFor } from './native-modules.mjs';

// After `npm start` or `npm run dist` better-sqlite3 may be built for Electron: switch it back first.
if (addonAbi() !== Number(process.versions.modules)) buildFor('node');

const steps = [
  { name: 'lint', cmd: ['npx', 'eslint', '--max-warnings', '0', '.'] },
  { name: 'typecheck', cmd: ['npm', 'run', '--silent', 'typecheck'] },
  { name: 'build', cmd: ['sh', '-c', 'npm run --silent build && npm run --silent build:targets'] },
  { name: 'unit + integration (vitest)', cmd: ['npx', 'vitest', 'run'] },
  { name: 'packaging (electron-builder --dir, stub Electron)', cmd: ['node', 'scripts/check-packaging.mjs'], needs: 'build' },
  { name: 'browser (playwright)', cmd: ['npx', 'playwright', 'test'], needs: 'build', when: () => fs.existsSync('playwright.config.ts') },
];

const results = [];
for (const step of steps) {
  if (step.when && !step.when()) continue;
  if (step.needs && results.find((r) => r.name === step.needs && !r.ok)) {
    results.push({ name: step.name, ok: false, secs: 0, skipped: true });
    continue;
  }
  console.log(`\n━━ ${step.name} ━━ ${step.cmd.join(' ')}`);
  const t0 = Date.now();
  const res = spawnSync(step.cmd[0], step.cmd.slice(1), { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
  results.push({ name: step.name, ok: res.status === 0, secs: (Date.now() - t0) / 1000 });
}

console.log('\n━━ summary ━━');
for (const r of results) console.log(`${r.ok ? 'ok  ' : r.skipped ? 'skip' : 'FAIL'}  ${r.name}${r.secs ? ` (${r.secs.toFixed(1)} s)` : ''}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
