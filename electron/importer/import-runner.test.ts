// The import runner (issue 30, item 3): imports read in worker threads, the same answers as an import
// in this thread, and a worker that runs out of memory or time terminated and reported as such.
// The worker is the bundle test/setup/import-worker.ts builds from these sources.

import { buildSchema, introspectionFromSchema } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '../../shared/messages';
import { graphqlFieldsAcrossTypes } from '../../test/helpers/large-specs';
import { prepareEndpoint } from '../store/endpoint-row';
import { ImportError, ImportTooLargeError } from './errors';
import { importApiDocument } from './index';
import { DEFAULT_IMPORT_SETTINGS, heapFlagOf, ImportRunner, ImportsBusyError, importSettingsFromEnv, type ImportRunnerSettings } from './import-runner';
import { importWorkerFile } from './import-worker-file';

const encode = (text: string) => new TextEncoder().encode(text);

function openapi(title: string, paths = 1): string {
  const all: Record<string, unknown> = {};
  for (let i = 0; i < paths; i += 1) all[`/items${i}/{id}`] = { get: { operationId: `get${i}`, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'ok' } } } };
  return JSON.stringify({ openapi: '3.0.3', info: { title, version: '1' }, servers: [{ url: 'https://api.example.test' }], paths: all });
}

const runners: ImportRunner[] = [];
function runner(settings: Partial<ImportRunnerSettings> = {}): ImportRunner {
  const r = new ImportRunner({ ...DEFAULT_IMPORT_SETTINGS, ...settings });
  runners.push(r);
  return r;
}

afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

describe('ImportRunner', () => {
  it('answers what an import in this thread answers, its endpoints written out for the store', async () => {
    const text = openapi('Shop', 3);
    const bytes = encode(text);
    const result = await runner().importDocument(bytes, { filename: 'shop.json' });
    const here = importApiDocument(encode(text), { filename: 'shop.json' });
    expect(result).toEqual({ ...here, endpoints: here.endpoints.map(prepareEndpoint) });
    // Handed over, not copied.
    expect(bytes.byteLength).toBe(0);
  });

  it('reads an uploaded Blob in the worker', async () => {
    const result = await runner().importDocument(new Blob([openapi('Blob API')]), { filename: 'x.json' });
    expect(result.name).toBe('Blob API');
    expect(result.endpoints).toHaveLength(1);
  });

  it('refuses a file with the error, message and location an import in this thread gives', async () => {
    const bad = '{"openapi": "3.0.3",\n  "info": }';
    const err = await runner().importDocument(encode(bad)).catch((e: unknown) => e);
    let here: unknown;
    try {
      importApiDocument(encode(bad));
    } catch (e) {
      here = e;
    }
    expect(err).toBeInstanceOf(ImportError);
    expect(err).not.toBeInstanceOf(ImportTooLargeError);
    expect((err as ImportError).message).toBe((here as ImportError).message);
    expect((err as ImportError).location).toBe((here as ImportError).location);
    expect((err as ImportError).location).toMatch(/^line 2, column \d+$/);
  });

  it('terminates a worker that runs out of memory and refuses the file as too large', { timeout: 120_000 }, async () => {
    const r = runner({ memoryMb: 160 });
    const sdl = graphqlFieldsAcrossTypes(1_500, 100);
    const err = await r.importDocument(encode(sdl), { filename: 'big.graphql' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportTooLargeError);
    expect((err as Error).message).toBe(SERVER_MESSAGES.importOutOfMemory(160));
    expect(r.workerCount).toBe(0);
    // The next import gets a new worker.
    expect((await r.importDocument(encode(openapi('After')))).name).toBe('After');
  });

  it('terminates a worker past the deadline and refuses the file as too complex', { timeout: 120_000 }, async () => {
    const r = runner({ deadlineMs: 500 });
    const sdl = graphqlFieldsAcrossTypes(1_500, 100);
    const started = performance.now();
    const err = await r.importDocument(encode(sdl), { filename: 'slow.graphql' }).catch((e: unknown) => e);
    const took = performance.now() - started;
    expect(err).toBeInstanceOf(ImportTooLargeError);
    expect((err as Error).message).toBe(
      'The file is too large or complex to import: reading it did not finish within 0.5 s. Import a smaller part of it (fewer operations or types).',
    );
    // Stopped at the deadline, not when the import would have ended (several seconds on this file).
    expect(took).toBeGreaterThanOrEqual(500);
    expect(took).toBeLessThan(2_500);
    expect(r.workerCount).toBe(0);
    expect((await r.importDocument(encode(openapi('After')))).name).toBe('After');
  });

  it('runs imports side by side on at most maxWorkers workers, each with its own answer', async () => {
    const r = runner({ maxWorkers: 2 });
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, r.workerCount)), 1);
    const names = Array.from({ length: 6 }, (_, i) => `API ${i}`);
    const results = await Promise.all(names.map((name, i) => r.importDocument(encode(openapi(name, i + 1)))));
    clearInterval(watch);
    expect(results.map((x) => x.name)).toEqual(names);
    expect(results.map((x) => x.endpoints.length)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('refuses an import beyond the line as busy, and reads the others', async () => {
    const r = runner({ maxWorkers: 1, maxQueued: 1 });
    const settled = await Promise.allSettled([r.importDocument(encode(openapi('One'))), r.importDocument(encode(openapi('Two'))), r.importDocument(encode(openapi('Three')))]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((settled[2] as PromiseRejectedResult).reason).toBeInstanceOf(ImportsBusyError);
    expect(((settled[2] as PromiseRejectedResult).reason as Error).message).toBe(SERVER_MESSAGES.importsBusy);
  });

  it('keeps one worker started between imports, and retires one whose heap grew', async () => {
    const warm = runner();
    await warm.warm();
    expect(warm.workerCount).toBe(1);
    await warm.importDocument(encode(openapi('Warm')));
    expect(warm.workerCount).toBe(1);
    const lean = runner({ retireHeapMb: 0 });
    await lean.importDocument(encode(openapi('Lean')));
    expect(lean.workerCount).toBe(0);
  });

  it('imports an introspection answer; an answer without a schema is null, an invalid schema refused', async () => {
    const r = runner();
    const schema = introspectionFromSchema(buildSchema('type Query { pets(limit: Int): [Pet] } type Pet { name: String }'));
    const target = { name: 'Pets', baseUrl: 'https://api.example.test', path: '/graphql' };
    const result = await r.importIntrospectionAnswer(JSON.stringify({ data: schema }), target);
    expect(result?.format).toBe('graphql-introspection');
    expect(result?.endpoints.map((e) => [e.method, e.path, (JSON.parse(e.graphql!) as { kind: string }).kind])).toEqual([['POST', '/graphql', 'query']]);
    const objects = await r.readIntrospectionAnswer(JSON.stringify({ data: schema }), target);
    expect(objects?.endpoints[0]?.graphql?.field).toBe('pets');
    expect(await r.importIntrospectionAnswer('{"errors":[{"message":"introspection is disabled"}]}', target)).toBeNull();
    expect(await r.importIntrospectionAnswer('<html>not json</html>', target)).toBeNull();
    const broken = { data: { __schema: { queryType: { name: 'Missing' }, types: [], directives: [] } } };
    await expect(r.importIntrospectionAnswer(JSON.stringify(broken), target)).rejects.toThrow(/^The GraphQL introspection result is not valid/);
  });

  it('reads its settings from PORTCULLIS_IMPORT_*, refusing a wrong value by name', () => {
    expect(importSettingsFromEnv({})).toEqual(DEFAULT_IMPORT_SETTINGS);
    expect(importSettingsFromEnv({ PORTCULLIS_IMPORT_MEMORY_MB: '800', PORTCULLIS_IMPORT_READ_TIMEOUT_MS: '5000', PORTCULLIS_IMPORT_WORKERS: '4' })).toMatchObject({
      memoryMb: 800,
      deadlineMs: 5000,
      maxWorkers: 4,
    });
    expect(() => importSettingsFromEnv({ PORTCULLIS_IMPORT_MEMORY_MB: '64' })).toThrow('PORTCULLIS_IMPORT_MEMORY_MB must be a whole number from 128 to 16384; got "64".');
    expect(() => importSettingsFromEnv({ PORTCULLIS_IMPORT_WORKERS: 'two' })).toThrow(/^PORTCULLIS_IMPORT_WORKERS must be a whole number/);
  });

  it('notices a process-wide heap flag, which would replace the workers\' limit', () => {
    expect(heapFlagOf([], '')).toBeNull();
    expect(heapFlagOf(['--max-old-space-size=4096'], '')).toBe('--max-old-space-size=4096');
    expect(heapFlagOf([], '--enable-source-maps --max_old_space_size=3000')).toBe('--max_old_space_size=3000');
  });

  it('says how to build the worker when its bundle is missing', () => {
    expect(() => importWorkerFile({ PORTCULLIS_IMPORT_WORKER_FILE: '/nowhere/import-worker.cjs' })).toThrow(
      /^The import worker \(import-worker\.cjs\) is missing: build Portcullis with `npm run build:core` \(looked in \/nowhere\/import-worker\.cjs, /,
    );
  });
});
