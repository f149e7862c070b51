// Import budget (issue 3): for each fixture, the end-to-end import (read the file, parse, extract,
// store into a real SQLite file) measured in the same run as SwaggerParser.validate() on the same
// file. Each measurement runs in its own child process, alternating between the two tools, so both
// see the same machine load; the first call of a process is reported as "cold", the others "warm".
// Budget: import <= 0.5x validate on the GitHub, Stripe and Azure specs; peak RSS <= 250 MB.
// Run: npm run bench -- import [--rounds N]

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importApiDocument } from '../../electron/importer/index';
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

interface ChildResult {
  ms: number[];
  maxRssMB: number;
  error?: string;
  endpoints?: number;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const rssMB = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function childImport(file: string, iterations: number): Promise<ChildResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-import-'));
  const store = await openStore(path.join(dir, 'bench.db'));
  const repos = createRepos(store.db);
  const owner = await repos.users.create({ email: 'b@example.com', username: 'bench', firstName: 'B', lastName: 'M', passwordHash: null }, new Date());
  const ms: number[] = [];
  let endpoints = 0;
  for (let i = 0; i < iterations; i += 1) {
    gc();
    const t0 = performance.now();
    const bytes = fs.readFileSync(file);
    const result = importApiDocument(bytes, { filename: path.basename(file) });
    await storeImport(repos, { ownerId: owner.id, result, filename: path.basename(file), now: new Date() });
    ms.push(performance.now() - t0);
    endpoints = result.endpoints.length;
  }
  const maxRssMB = rssMB();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { ms, maxRssMB, endpoints };
}

async function childValidate(file: string, iterations: number): Promise<ChildResult> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const ms: number[] = [];
  let error: string | undefined;
  for (let i = 0; i < iterations; i += 1) {
    gc();
    const t0 = performance.now();
    try {
      // External refs off; http off. The file resolver stays on only so it can read this path.
      await SwaggerParser.validate(file, { resolve: { external: false, http: false } });
    } catch (err) {
      error = (err as Error).message.split('\n')[0]!.slice(0, 120);
    }
    ms.push(performance.now() - t0);
  }
  return { ms, maxRssMB: rssMB(), ...(error ? { error } : {}) };
}

async function childYaml(file: string, iterations: number): Promise<{ jsYaml: number[]; yaml: number[] }> {
  const jsYaml = (await import('js-yaml')).default;
  const YAML = await import('yaml');
  const text = fs.readFileSync(file, 'utf8');
  const out = { jsYaml: [] as number[], yaml: [] as number[] };
  for (let i = 0; i < iterations; i += 1) {
    gc();
    let t0 = performance.now();
    jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA });
    out.jsYaml.push(performance.now() - t0);
    gc();
    t0 = performance.now();
    YAML.parse(text, { maxAliasCount: 100 });
    out.yaml.push(performance.now() - t0);
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
const round1 = (x: number) => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const [mode, file, n] = process.argv.slice(2);
  if (mode === 'import' || mode === 'validate' || mode === 'yaml') {
    const iterations = Number(n);
    const out = mode === 'import' ? await childImport(file!, iterations) : mode === 'validate' ? await childValidate(file!, iterations) : await childYaml(file!, iterations);
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return;
  }
  const roundsArg = process.argv.indexOf('--rounds');
  const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 3;
  const rows: Record<string, unknown>[] = [];
  let failed = false;
  console.log(`import vs SwaggerParser.validate, ${rounds} rounds, ms (cold = first call of a process, warm = median of the others)`);
  console.log(['fixture'.padEnd(52), 'eps', 'imp cold', 'val cold', 'ratio', 'imp warm', 'val warm', 'ratio', 'best ratio', 'RSS MB', ''].join('\t'));
  for (const name of FIXTURES) {
    const file = path.join(FIXTURE_DIR, name);
    const size = fs.statSync(file).size;
    const iterations = size > 1_000_000 ? 6 : 15;
    const imp: ChildResult[] = [];
    const val: ChildResult[] = [];
    for (let r = 0; r < rounds; r += 1) {
      imp.push(runChild<ChildResult>('import', file, iterations));
      val.push(runChild<ChildResult>('validate', file, iterations));
    }
    const importCold = median(imp.map((c) => c.ms[0]!));
    const importWarm = median(imp.flatMap((c) => c.ms.slice(1)));
    const validateCold = median(val.map((c) => c.ms[0]!));
    const validateWarm = median(val.flatMap((c) => c.ms.slice(1)));
    const rss = Math.max(...imp.map((c) => c.maxRssMB));
    const bestRatio = Math.min(...imp.flatMap((c) => c.ms)) / Math.min(...val.flatMap((c) => c.ms));
    const coldRatio = importCold / validateCold;
    const warmRatio = importWarm / validateWarm;
    const budgeted = BUDGETED.has(name);
    const ok = !budgeted || (coldRatio <= RATIO_BUDGET && warmRatio <= RATIO_BUDGET && rss <= RSS_BUDGET_MB);
    if (!ok) failed = true;
    const row = {
      fixture: name,
      bytes: size,
      endpoints: imp[0]!.endpoints,
      importColdMs: round1(importCold),
      validateColdMs: round1(validateCold),
      coldRatio: Math.round(coldRatio * 100) / 100,
      importWarmMs: round1(importWarm),
      validateWarmMs: round1(validateWarm),
      warmRatio: Math.round(warmRatio * 100) / 100,
      importBestMs: round1(Math.min(...imp.flatMap((c) => c.ms))),
      validateBestMs: round1(Math.min(...val.flatMap((c) => c.ms))),
      bestRatio: Math.round(bestRatio * 100) / 100,
      importPeakRssMB: rss,
      validateError: val.find((c) => c.error)?.error ?? null,
      budget: budgeted ? (ok ? 'pass' : 'FAIL') : null,
    };
    rows.push(row);
    console.log(
      [name.slice(0, 52).padEnd(52), row.endpoints, row.importColdMs, row.validateColdMs, row.coldRatio, row.importWarmMs, row.validateWarmMs, row.warmRatio, row.bestRatio, rss, row.budget ?? (row.validateError ? `validate: ${row.validateError.slice(0, 60)}` : '')].join('\t'),
    );
  }
  const azure = path.join(FIXTURE_DIR, FIXTURES[2]!);
  const yamlRuns = Array.from({ length: rounds }, () => runChild<{ jsYaml: number[]; yaml: number[] }>('yaml', azure, 5));
  const yamlParsers = {
    file: FIXTURES[2],
    jsYamlColdMs: round1(median(yamlRuns.map((r) => r.jsYaml[0]!))),
    jsYamlWarmMs: round1(median(yamlRuns.flatMap((r) => r.jsYaml.slice(1)))),
    yamlColdMs: round1(median(yamlRuns.map((r) => r.yaml[0]!))),
    yamlWarmMs: round1(median(yamlRuns.flatMap((r) => r.yaml.slice(1)))),
  };
  console.log('YAML parsers on the Azure spec (ms):', yamlParsers);
  writeResult('import', { rounds, ratioBudget: RATIO_BUDGET, rssBudgetMB: RSS_BUDGET_MB, fixtures: rows, yamlParsers, loadAverage: os.loadavg() });
  if (failed) {
    console.log('Budget: FAIL');
    process.exitCode = 1;
  } else console.log('Budget: pass');
}

await main();
