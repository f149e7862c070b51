// A crash mid-scan (the process killed with SIGKILL while requests are in flight and findings are
// being written) leaves a consistent database, and the next start marks the scan failed with a reason.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SCAN_TEXT } from '../../electron/scanner/service';
import { bundle, ROOT } from '../helpers/bundle';
import { createTestCore, tempDir } from '../helpers/core';
import { startMiniApi } from '../helpers/mini-api';

describe('crash mid-scan', () => {
  const dataDir = tempDir('portcullis-crash-');
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('leaves the database consistent and the scan failed after a restart', async () => {
    const target = await startMiniApi({ anyToken: true, weakHeaders: true, delayMs: 40 });
    const script = await bundle('test/scanner/fixtures/crash-child.ts', 'crash-child');
    const child = spawn(process.execPath, [script, dataDir, target.url, target.users.alice.token, target.users.bob.token], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const scanId = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child did not start scanning: ${out} ${err}`)), 30_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /RUNNING (\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.on('exit', (code) => reject(new Error(`child exited (${code}) before scanning: ${out} ${err}`)));
    });
    child.removeAllListeners('exit');
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect(out).not.toContain('FINISHED');
    const sentAtKill = target.requests.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(target.requests.length).toBe(sentAtKill);
    await target.close();

    // The file as the crash left it: intact, no dangling rows, the scan still "running".
    const dbFile = path.join(dataDir, 'portcullis.db');
    const raw = new SQLite(dbFile);
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(raw.pragma('foreign_key_check')).toEqual([]);
    const before = raw.prepare('SELECT status, findings_count FROM scans WHERE id = ?').get(scanId) as { status: string; findings_count: number };
    const stored = (raw.prepare('SELECT count(*) AS n FROM findings WHERE scan_id = ?').get(scanId) as { n: number }).n;
    expect(before.status).toBe('running');
    expect(stored).toBeGreaterThan(0);
    expect(before.findings_count).toBe(stored);
    raw.close();

    // The next start.
    const tc = await createTestCore({ dataDir });
    const d = await tc.core.services.scans.details(scanId);
    expect(d.status).toBe('failed');
    expect(d.results.scan_info.failure_reason).toBe(SCAN_TEXT.interrupted);
    expect(d.results.scan_info.completed_at).toBeTruthy();
    expect(d.results.results).toHaveLength(stored);
    expect(tc.log.lines.some((l) => l.includes('Scan marked failed') && l.includes(scanId))).toBe(true);
    // Nothing is left running, so the user can start again.
    expect(await tc.core.services.repos.scans.runningForUser((await tc.core.services.repos.scans.findById(scanId))!.user_id)).toBeUndefined();
    await tc.core.close();
  });
});
