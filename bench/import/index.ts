// Import budget (issue 3): for each fixture, the end-to-end import (read the file, parse, extract in
// the import worker as the server does, store into a real SQLite file) measured in the same run as
// SwaggerParser.validate() on the same file. The worker is started half a second before the first
// import, as the server and the desktop app start it with the core; what a worker's start adds to an
// import that starts one (the CLI) is measured apart, against the import in the calling thread. Each tool runs in its own child process per round; rounds alternate which tool goes first,
// so both see the same machine load. The first call of a process is "cold", the others "warm".
// Ratios are paired: import/validate within a round, then the median over rounds; CPU time
// (user + system of the process) is reported next to wall time because the machine is shared.
// Budget: import <= 0.5x validate on the GitHub, Stripe and Azure specs; peak RSS <= 250 MB.
// Run: npm run bench -- import [--rounds N] [--only <part of a fixture name>] (--only: no YAML parser
// comparison, results not written)

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFastYamlReader } from '../../electron/importer/fast-yaml';
import { importApiDocument } from '../../electron/importer/index';
import { importRunner } from '../../electron/importer/import-runner';
import { YAML_SCHEMA } from '../../electron/importer/parse-document';
import { storeImport } from '../../electron/importer/store-import';
import { openStore } from '../../electron/store/database';
import { createRepos } from '../../electron/store/index';
import { writeResult } from '../lib/results';

const FIXTURE_DIR = process.env.PORTCULLIS_FIXTURES ?? '/work/shared/fixtures/specs';
const FIXTURES = [
  'github-api.github.com.json',
  'stripe-spec3.json',
  'apisguru-azure-web-WebApps-2019-08-01-swagger-2.0.yaml',
  'twitter-api-v2.postman_collection.json',
  'newman-echo-v2.0.postman_collection.json',
  'redocly-museum-3.1.yaml',
  'readme-schema-circular-3.0.yaml',
  'oai-petstore-expanded-3.0.json',
  'oai-petstore-3.0.yaml',
  'oai-petstore-swagger-2.0.json',
  'oai-petstore-with-external-docs-swagger-2.0.yaml',
  'oai-petstore-separate-swagger-2.0/spec/swagger.yaml',
  'oai-webhook-example-3.1.json',
  'kin-yaml-anchors-3.0.yaml',
];
const BUDGETED = new Set(FIXTURES.slice(0, 3));
const RATIO_BUDGET = 0.5;
const RSS_BUDGET_MB = 250;

interface Sample {
  wall: number;
  cpu: number;
}

interface ChildResult {
  samples: Sample[];
  maxRssMB: number;
  error?: string;
  endpoints?: number;
}

// A full, synchronous collection before each sample, so a sample does not pay for the garbage of the one
// before. Not the bare gc(): that one is a memory-reducing collection which also throws away V8's
// optimised code, so every "warm" call ran half-cold (the YAML reader took ~45 ms instead of ~15 ms).
const rawGc = (globalThis as { gc?: (options?: object) => void }).gc;
const gc = () => rawGc?.({ type: 'major', execution: 'sync' });
const rssMB = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function measure(fn: () => Promise<void> | void): Promise<Sample> {
  gc();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

/** `worker`: the import as the server runs it; `thread`: importApiDocument in this thread (before issue 30). */
async function childImport(file: string, iterations: number, how: 'worker' | 'thread'): Promise<ChildResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-import-'));
  const store = await openStore(path.join(dir, 'bench.db'));
  const repos = createRepos(store.db);
  const owner = await repos.users.create({ email: 'b@example.com', username: 'bench', firstName: 'B', lastName: 'M', passwordHash: null }, new Date());
  // Started with the server's core; loaded by the time a user imports.
  if (how === 'worker') await importRunner().warm();
  const samples: Sample[] = [];
  let endpoints = 0;
  for (let i = 0; i < iterations; i += 1) {
    samples.push(
      await measure(async () => {
        const bytes = fs.readFileSync(file);
        const result =
          how === 'worker'
            ? await importRunner().importDocument(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { filename: path.basename(file) })
            : importApiDocument(bytes, { filename: path.basename(file) });
        await storeImport(repos, { ownerId: owner.id, result, filename: path.basename(file), now: new Date() });
        endpoints = result.endpoints.length;
      }),
    );
  }
  const maxRssMB = rssMB();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { samples, maxRssMB, endpoints };
}

async function childValidate(file: string, iterations: number): Promise<ChildResult> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const samples: Sample[] = [];
  let error: string | undefined;
  for (let i = 0; i < iterations; i += 1) {
    samples.push(
      await measure(async () => {
        try {
          // External refs off; http off. The file resolver stays on only so it can read this path.
          await SwaggerParser.validate(file, { resolve: { external: false, http: false } });
        } catch (err) {
          error = (err as Error).message.split('\n')[0]!.replace(FIXTURE_DIR, '').slice(0, 120);
        }
      }),
    );
  }
  return { samples, maxRssMB: rssMB(), ...(error ? { error } : {}) };
}

/** One import of `file` in a fresh process: in the calling thread, or in a worker the import starts (the CLI). */
async function childFirstImport(file: string, how: 'thread' | 'worker'): Promise<Sample> {
  const bytes = new Uint8Array(fs.readFileSync(file));
  return measure(async () => {
    if (how === 'thread') importApiDocument(bytes, { filename: path.basename(file) });
    else await importRunner().importDocument(bytes, { filename: path.basename(file) });
  });
}

type YamlTimes = { jsYaml: number[]; yaml: number[]; fastBlock: number[] };

async function childYaml(file: string, iterations: number): Promise<YamlTimes> {
  const jsYaml = (await import('js-yaml')).default;
  const YAML = await import('yaml');
  const readFast = createFastYamlReader(YAML_SCHEMA);
  const text = fs.readFileSync(file, 'utf8');
  const out: YamlTimes = { jsYaml: [], yaml: [], fastBlock: [] };
  for (let i = 0; i < iterations; i += 1) {
    out.jsYaml.push((await measure(() => void jsYaml.load(text, { schema: YAML_SCHEMA }))).wall);
    out.yaml.push((await measure(() => void YAML.parse(text, { maxAliasCount: 100 }))).wall);
    out.fastBlock.push(
      (
        await measure(() => {
          if (!readFast(text)) throw new Error('the fast YAML reader gave up on the Azure spec');
        })
      ).wall,
    );
  }
  return out;
}

function runChild<T>(mode: string, file: string, iterations: number): T {
  const res = spawnSync(process.execPath, ['--expose-gc', process.argv[1]!, mode, file, String(iterations)], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(`${mode} ${file} failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split('\n').pop()!) as T;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;

interface Round {
  imp: ChildResult;
  val: ChildResult;
  /** The import in the calling thread, as before issue 30: what the worker costs, under the same load. */
  thr: ChildResult;
}

function summarize(rounds: Round[], pick: (s: Sample) => number) {
  const cold = (c: ChildResult) => pick(c.samples[0]!);
  const warm = (c: ChildResult) => median(c.samples.slice(1).map(pick));
  return {
    importCold: r1(median(rounds.map((r) => cold(r.imp)))),
    validateCold: r1(median(rounds.map((r) => cold(r.val)))),
    coldRatio: r2(median(rounds.map((r) => cold(r.imp) / cold(r.val)))),
    importWarm: r1(median(rounds.map((r) => warm(r.imp)))),
    validateWarm: r1(median(rounds.map((r) => warm(r.val)))),
    warmRatio: r2(median(rounds.map((r) => warm(r.imp) / warm(r.val)))),
    threadCold: r1(median(rounds.map((r) => cold(r.thr)))),
    threadWarm: r1(median(rounds.map((r) => warm(r.thr)))),
    workerOverThreadCold: r2(median(rounds.map((r) => cold(r.imp) / cold(r.thr)))),
    workerOverThreadWarm: r2(median(rounds.map((r) => warm(r.imp) / warm(r.thr)))),
  };
}

async function main(): Promise<void> {
  const [mode, file, n] = process.argv.slice(2);
  if (mode === 'first-thread' || mode === 'first-worker') {
    process.stdout.write(`${JSON.stringify(await childFirstImport(file!, mode === 'first-thread' ? 'thread' : 'worker'))}\n`);
    process.exit(0);
  }
  if (mode === 'import' || mode === 'import-thread' || mode === 'validate' || mode === 'yaml') {
    const iterations = Number(n);
    const out = mode === 'import' || mode === 'import-thread' ? await childImport(file!, iterations, mode === 'import' ? 'worker' : 'thread') : mode === 'validate' ? await childValidate(file!, iterations) : await childYaml(file!, iterations);
    process.stdout.write(`${JSON.stringify(out)}\n`);
    // The warm worker would keep nothing alive, but the store's handles and timers are not worth waiting for.
    process.exit(0);
  }
  const roundsArg = process.argv.indexOf('--rounds');
  const roundCount = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 7;
  const rows: Record<string, unknown>[] = [];
  let failed = false;
  console.log(`import vs SwaggerParser.validate: ${roundCount} rounds; ms; ratios are paired per round (median)`);
  console.log(['fixture'.padEnd(40), 'eps', 'wall cold i/v', 'ratio', 'wall warm i/v', 'ratio', 'cpu cold', 'cpu warm', 'RSS MB', 'thread c/w', 'w/t c/w', ''].join('\t'));
  const onlyArg = process.argv.indexOf('--only');
  const only = onlyArg > 0 ? process.argv[onlyArg + 1]! : null;
  for (const name of FIXTURES.filter((f) => !only || f.includes(only))) {
    const file = path.join(FIXTURE_DIR, name);
    const size = fs.statSync(file).size;
    const iterations = size > 1_000_000 ? 5 : 10;
    const rounds: Round[] = [];
    for (let r = 0; r < roundCount; r += 1) {
      // Each tool goes first in turn.
      const order = (['import', 'import-thread', 'validate'] as const).map((_, i, all) => all[(i + r) % all.length]!);
      const got: Partial<Record<(typeof order)[number], ChildResult>> = {};
      for (const mode of order) got[mode] = runChild<ChildResult>(mode, file, iterations);
      rounds.push({ imp: got.import!, thr: got['import-thread']!, val: got.validate! });
    }
    const wall = summarize(rounds, (s) => s.wall);
    const cpu = summarize(rounds, (s) => s.cpu);
    const rss = Math.max(...rounds.map((r) => r.imp.maxRssMB));
    const budgeted = BUDGETED.has(name);
    const ok = wall.coldRatio <= RATIO_BUDGET && wall.warmRatio <= RATIO_BUDGET && rss <= RSS_BUDGET_MB;
    if (budgeted && !ok) failed = true;
    const validateError = rounds.find((r) => r.val.error)?.val.error ?? null;
    rows.push({ fixture: name, bytes: size, endpoints: rounds[0]!.imp.endpoints, wall, cpu, importPeakRssMB: rss, validateError, budget: budgeted ? (ok ? 'pass' : 'FAIL') : null });
    console.log(
      [
        name.slice(0, 40).padEnd(40),
        rounds[0]!.imp.endpoints,
        `${wall.importCold}/${wall.validateCold}`,
        wall.coldRatio,
        `${wall.importWarm}/${wall.validateWarm}`,
        wall.warmRatio,
        cpu.coldRatio,
        cpu.warmRatio,
        rss,
        `${wall.threadCold}/${wall.threadWarm}`,
        `${wall.workerOverThreadCold}/${wall.workerOverThreadWarm}`,
        budgeted ? (ok ? 'pass' : 'FAIL') : validateError ? `(validate: ${validateError.slice(0, 50)})` : '',
      ].join('\t'),
    );
  }
  if (only) {
    console.log(failed ? 'Budget: FAIL' : 'Budget: pass');
    return;
  }
  const azure = path.join(FIXTURE_DIR, FIXTURES[2]!);
  const yamlRuns = Array.from({ length: 3 }, () => runChild<YamlTimes>('yaml', azure, 5));
  const warmOf = (k: keyof YamlTimes) => r1(median(yamlRuns.flatMap((r) => r[k].slice(1))));
  const coldOf = (k: keyof YamlTimes) => r1(median(yamlRuns.map((r) => r[k][0]!)));
  const yamlParsers = {
    file: FIXTURES[2],
    jsYaml: { coldMs: coldOf('jsYaml'), warmMs: warmOf('jsYaml') },
    yaml: { coldMs: coldOf('yaml'), warmMs: warmOf('yaml') },
    fastBlockReader: { coldMs: coldOf('fastBlock'), warmMs: warmOf('fastBlock') },
  };
  console.log('YAML parsers on the Azure spec (ms):', JSON.stringify(yamlParsers));
  // What starting a worker adds to an import that starts one (the CLI), on a small and a large file.
  const workerStart: Record<string, { threadMs: number; workerMs: number }> = {};
  for (const name of [FIXTURES[8]!, FIXTURES[0]!]) {
    const file = path.join(FIXTURE_DIR, name);
    const runs = Array.from({ length: 7 }, () => ({ thread: runChild<Sample>('first-thread', file, 1), worker: runChild<Sample>('first-worker', file, 1) }));
    workerStart[name] = { threadMs: r1(median(runs.map((x) => x.thread.wall))), workerMs: r1(median(runs.map((x) => x.worker.wall))) };
  }
  console.log('first import of a process, in the calling thread / in a worker it starts (ms):', JSON.stringify(workerStart));
  writeResult('import', { rounds: roundCount, ratioBudget: RATIO_BUDGET, rssBudgetMB: RSS_BUDGET_MB, fixtures: rows, yamlParsers, workerStart, loadAverage: os.loadavg().map(r2) });
  console.log(failed ? 'Budget: FAIL' : 'Budget: pass');
  if (failed) process.exitCode = 1;
}

await main();
