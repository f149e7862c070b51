// A scan never damages the target's host (issue 30, item 1): a whole scan with every registered check
// of an API whose handlers record every file, command, row and wipe they are asked to touch
// (test/targets/recording.ts). Nothing outside what the scan created is written or deleted, every
// command is a harmless sleep or the operation's own, no statement changes more than one row, no
// reset or bulk delete is called — while the flaws are still found where probing is harmless (reads).
// With the user's consent (writes to existing objects, the operation named), the held-back probes go.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importApiDocument } from '../../electron/importer/index';
import { CHECKS } from '../../electron/scanner/checks/index';
import { runCheckScan, type CheckScanOptions, type CheckScanRun } from '../helpers/check-scan';
import { shellCommands, startRecordingTarget, type RecordingTarget } from '../targets/recording';

async function scan(t: RecordingTarget, opts: CheckScanOptions = {}): Promise<CheckScanRun> {
  const imported = importApiDocument(new TextEncoder().encode(JSON.stringify(t.spec)), { filename: 'recording.json' });
  return runCheckScan({
    api: { id: 'recording', name: imported.name, baseUrl: t.url, security: imported.security },
    endpoints: imported.endpoints,
    checks: CHECKS,
    keys: [t.tokens.alice, t.tokens.bob],
    opts: { concurrency: 4, ...opts },
  });
}

/** A line a shell refuses to parse runs nothing at all (bash -n reads without executing). */
function syntaxError(line: string): boolean {
  return spawnSync('bash', ['-n', '-c', line], { stdio: 'ignore' }).status !== 0;
}

const PROGRAM_DIRS = ['/bin', '/usr/bin', '/sbin', '/usr/sbin', '/usr/local/bin'];

/**
 * A sub-command a shell would run harmlessly: the operation's own ping, a bounded sleep, Windows' ping to
 * loopback, or a word that names no program and no builtin with effects (what a shell answers "not found"
 * to: SQL or JavaScript text that reached the shell). Never a redirection into a file.
 */
function harmless(command: string): boolean {
  if (syntaxError(command)) return true;
  if (/>/.test(command)) return false;
  if (/^ping -c 1\b/.test(command) || /^sleep \d{1,2}$/.test(command) || /^ping -n \d{1,2} 127\.0\.0\.1$/.test(command)) return true;
  const program = command.replace(/^[(\s]+/, '').split(/\s+/)[0] ?? '';
  if (['return', 'var', 'true', 'false', ':'].includes(program)) return true;
  return !/^[A-Za-z0-9_.+-]+$/.test(program) || !PROGRAM_DIRS.some((d) => fs.existsSync(path.join(d, program)));
}

describe('a whole scan of an API that records what it is asked to touch', () => {
  let t: RecordingTarget;
  let s: CheckScanRun;
  beforeAll(async () => {
    t = await startRecordingTarget();
    s = await scan(t);
  }, 240_000);
  afterAll(() => t?.close());

  it('completes', () => {
    expect(s.outcome.status).toBe('completed');
  });

  it('writes and deletes only files the scan created, never outside the folder', () => {
    expect(t.files.filter((f) => !f.inside)).toEqual([]);
    const foreign = t.files.filter((f) => !/(^|[/\\])portcullis[^/\\]*$/.test(f.path) && f.route !== 'POST /api/files');
    expect(foreign).toEqual([]);
    for (const [name, content] of Object.entries(t.seededFiles)) expect(t.readSeeded(name)).toBe(content);
  });

  it('runs no command but harmless sleeps and the operation\'s own', () => {
    expect(t.commands.length).toBeGreaterThan(0);
    const others = t.commands.filter((line) => !syntaxError(line)).flatMap(shellCommands).filter((c) => !harmless(c));
    expect(others).toEqual([]);
  });

  it('changes no more than one row at a time, and none of the rows it did not create', () => {
    expect(t.bulkChanges).toEqual([]);
    expect(t.items()).toEqual(t.seededItems);
  });

  it('calls no reset route and no bulk delete', () => {
    expect(t.wipes).toEqual([]);
  });

  it('still finds the flaws where probing is harmless', () => {
    const found = (check: string, method: string, path: string) => s.findings.some((f) => f.check_id === check && f.method === method && f.path === path);
    expect(found('api8-path-traversal', 'GET', '/api/files/raw')).toBe(true);
    expect(found('api8-command-injection', 'POST', '/api/tools/ping')).toBe(true);
    expect(found('api8-sql-injection', 'GET', '/api/items')).toBe(true);
    expect(found('api8-nosql-injection', 'POST', '/api/items/find')).toBe(true);
  });

  it('says in the scan notes which probes it held back, and how to allow them', () => {
    const note = s.outcome.errors.find((e) => e.includes('file-name and path probes'));
    expect(note).toContain('PUT /api/files/raw');
    expect(note).toContain('destructive:');
    expect(s.outcome.errors.some((e) => e.includes('POST /api/items/rename') && e.includes('alters or removes an existing object'))).toBe(true);
    expect(s.outcome.errors.some((e) => e.includes('NoSQL operators') && e.includes('PUT /api/items/{id}'))).toBe(true);
  });
});

describe('with the user\'s consent: writes to existing objects and the operations named', () => {
  let t: RecordingTarget;
  let s: CheckScanRun;
  beforeAll(async () => {
    t = await startRecordingTarget();
    const only = ['PUT /api/files/raw', 'GET /api/reset', 'GET /api/files/raw'];
    s = await scan(t, { only, allowExistingObjects: true, namedOperations: ['PUT /api/files/raw', 'GET /api/reset'] });
  }, 240_000);
  afterAll(() => t?.close());

  it('sends the file-path probes to the named write (the target refuses to write outside its folder)', () => {
    expect(t.files.some((f) => f.route === 'PUT /api/files/raw' && !f.inside)).toBe(true);
  });

  it('calls the named reset route once', () => {
    expect(t.wipes).toEqual(['GET /api/reset']);
    expect(s.findings.some((f) => f.check_id === 'api5-unauthenticated-reset')).toBe(true);
  });
});
