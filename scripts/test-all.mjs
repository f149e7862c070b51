// `npm test`: the one command that checks everything — lint, type check, build, unit and
// integration tests (vitest, including the electronegativity check of the desktop shell), the
// packaging configuration (electron-builder against a stub Electron), then the browser tests
// (Playwright on Debian's Chromium). The API contract suite runs three times: on SQLite (with the rest),
// on PostgreSQL, and on two nodes sharing one PostgreSQL database (PORTCULLIS_TEST_STORE; the tests start
// a throwaway cluster on 127.0.0.1, test/helpers/postgres.ts).
// Every step runs; the command fails if any did. Browser tests need the build. Steps of one `together`
// group run side by side (lint beside the type check: each leaves a core idle most of the time); their output
// is printed whole, one after the other, when the group ends. The two PostgreSQL contract runs were tried side
// by side too and took longer than one after the other (290 s against 117 + 135 s on a clean run).
// The failures are repeated at the very end, so a log cut to its last lines still says what failed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { addonAbi, buildFor } from './native-modules.mjs';

const RESULTS = 'test-results';
const VITEST_JSON = path.join(RESULTS, 'vitest.json');
const CONTRACT_JSON = (store) => path.join(RESULTS, `vitest-contract-${store}.json`);
const PLAYWRIGHT_JSON = path.join(RESULTS, 'playwright.json');

// After `npm start` or `npm run dist` better-sqlite3 may be built for Electron: switch it back first.
if (addonAbi() !== Number(process.versions.modules)) buildFor('node');

const steps = [
  { name: 'lint', cmd: ['npx', 'eslint', '--max-warnings', '0', '.'], together: 'static' },
  { name: 'typecheck', cmd: ['npm', 'run', '--silent', 'typecheck'], together: 'static' },
  { name: 'build', cmd: ['sh', '-c', 'npm run --silent build && npm run --silent build:targets'] },
  {
    name: 'unit + integration (vitest)',
    cmd: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`],
    failures: () => vitestFailures(VITEST_JSON),
  },
  ...['postgres', 'two-nodes'].map((store) => ({
    name: `API contract suite on ${store === 'postgres' ? 'PostgreSQL' : 'two nodes, one PostgreSQL'} (vitest)`,
    cmd: ['npx', 'vitest', 'run', 'test/contract', '--reporter=dot', '--reporter=json', `--outputFile.json=${CONTRACT_JSON(store)}`],
    env: { PORTCULLIS_TEST_STORE: store },
    failures: () => vitestFailures(CONTRACT_JSON(store)),
  })),
  { name: 'packaging (electron-builder --dir, stub Electron)', cmd: ['node', 'scripts/check-packaging.mjs'], needs: 'build' },
  {
    name: 'browser (playwright)',
    cmd: ['npx', 'playwright', 'test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON },
    needs: 'build',
    when: () => fs.existsSync('playwright.config.ts'),
    failures: playwrightFailures,
  },
];

fs.mkdirSync(RESULTS, { recursive: true });
for (const f of [VITEST_JSON, CONTRACT_JSON('postgres'), CONTRACT_JSON('two-nodes'), PLAYWRIGHT_JSON]) fs.rmSync(f, { force: true });

const results = [];
for (let i = 0; i < steps.length; ) {
  const group = steps[i].together ? steps.filter((s) => s.together === steps[i].together) : [steps[i]];
  i += group.length;
  const runs = group.map((step) => {
    if (step.when && !step.when()) return null;
    if (step.needs && results.find((r) => r.name === step.needs && !r.ok)) {
      return Promise.resolve({ name: step.name, ok: false, secs: 0, skipped: true });
    }
    return run(step, group.length > 1);
  });
  for (const r of await Promise.all(runs)) if (r) results.push(r);
}

const failed = results.filter((r) => r.failures?.length);
if (failed.length) {
  console.log('\n━━ failures ━━');
  for (const r of failed) {
    console.log(`${r.name}:`);
    for (const f of r.failures.slice(0, 20)) console.log(`  ✗ ${f.title}\n${indent(f.message, '      ')}`);
    if (r.failures.length > 20) console.log(`  … and ${r.failures.length - 20} more`);
  }
}
if (failed.length) {
  // One line per failed test, right above the summary: the last lines of a long log name them all.
  console.log('\n━━ failed ━━');
  for (const r of failed) for (const f of r.failures.slice(0, 20)) console.log(`✗ ${f.title.slice(0, 200)}`);
}
console.log('\n━━ summary ━━');
for (const r of results) console.log(`${r.ok ? 'ok  ' : r.skipped ? 'skip' : 'FAIL'}  ${r.name}${r.secs ? ` (${r.secs.toFixed(1)} s)` : ''}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);

/** Runs one step; alongside others, its output is held and printed whole when it ends. */
function run(step, held) {
  const header = `\n━━ ${step.name} ━━ ${step.cmd.join(' ')}`;
  if (!held) console.log(header);
  const t0 = Date.now();
  const env = { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0', ...step.env };
  const child = spawn(step.cmd[0], step.cmd.slice(1), { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
  const chunks = [];
  if (held) for (const s of [child.stdout, child.stderr]) s.on('data', (c) => chunks.push(c));
  return new Promise((resolve) => {
    let done = false;
    const finish = (code) => {
      if (done) return;
      done = true;
      if (held) {
        console.log(header);
        process.stdout.write(Buffer.concat(chunks));
      }
      const ok = code === 0;
      resolve({ name: step.name, ok, secs: (Date.now() - t0) / 1000, failures: ok || !step.failures ? [] : safely(step.failures) });
    };
    child.on('error', (err) => {
      chunks.push(Buffer.from(`${err.message}\n`));
      finish(1);
    });
    child.on('close', finish);
  });
}

function safely(read) {
  try {
    return read();
  } catch (err) {
    return [{ title: 'the report of failures could not be read', message: String(err) }];
  }
}

function indent(text, pad) {
  // eslint-disable-next-line no-control-regex
  const plain = String(text ?? '').replace(/\x1b\[[0-9;]*m/g, '');
  return plain.split('\n').slice(0, 12).map((l) => pad + l.slice(0, 300)).join('\n');
}

function vitestFailures(file) {
  if (!fs.existsSync(file)) return [{ title: 'vitest wrote no report', message: 'see the output above' }];
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const out = [];
  for (const file of report.testResults ?? []) {
    const rel = path.relative(process.cwd(), file.name);
    const bad = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of bad) out.push({ title: `${rel} › ${t.fullName ?? t.title}`, message: (t.failureMessages ?? []).join('\n') });
    if (!bad.length && file.status === 'failed') out.push({ title: rel, message: file.message ?? 'the file failed outside its tests' });
  }
  return out;
}

function playwrightFailures() {
  if (!fs.existsSync(PLAYWRIGHT_JSON)) return [{ title: 'playwright wrote no report', message: 'see the output above' }];
  const report = JSON.parse(fs.readFileSync(PLAYWRIGHT_JSON, 'utf8'));
  const out = [];
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const last = t.results?.at(-1);
        if (t.status === 'unexpected') {
          out.push({ title: `${spec.file}:${spec.line} › ${[...trail, spec.title].join(' › ')}`, message: last?.error?.message ?? last?.errors?.[0]?.message ?? '' });
        }
      }
    }
    for (const s of suite.suites ?? []) walk(s, s.title && !s.title.endsWith('.ts') ? [...trail, s.title] : trail);
  };
  for (const s of report.suites ?? []) walk(s, []);
  for (const e of report.errors ?? []) out.push({ title: 'outside the tests', message: e.message ?? String(e) });
  return out;
}
