// One data directory, one server (issue 18 item 5): a second core or `portcullis serve` on a data dir
// already in use is refused with a message naming the process that holds it, and leaves the first
// one's running scans alone; once the first stops, or if its process died, the next one starts.
// On Linux a pid that now names another process (PID 1 of a restarted container) does not hold the
// lock: the lock records the process's start time too (issue 30, item 6).

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../electron/core';
import { LOCK_FILE, processStart } from '../../electron/data-dir-lock';
import { createTestCore, openTransport, signUpAndLogin, tempDir, TEST_SCRYPT } from '../helpers/core';
import { seedApi, seedScan } from '../helpers/seed';
import { startServe } from '../helpers/serve-process';

const dirs: string[] = [];
function freshDir(): string {
  const d = tempDir('portcullis-lock-');
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

const secondCore = (dataDir: string) => createCore({ shell: 'server', dataDir, scryptCost: TEST_SCRYPT, allowLocalScans: true });

describe('data dir lock (in process)', () => {
  it('refuses a second core on the same data dir, naming the holder, and leaves its running scan alone', async () => {
    const dataDir = freshDir();
    const first = await createTestCore({ dataDir });
    const t = await openTransport('http', first.core);
    const owner = await signUpAndLogin(t, 'owner');
    const apiId = await seedApi(first.core.store.db, owner.id, 'Shop');
    const scanId = await seedScan(first.core.store.db, apiId, owner.id, { status: 'running', created_at: new Date().toISOString() });

    const refused = secondCore(dataDir);
    await expect(refused).rejects.toThrow(/in use by another Portcullis/);
    const message = await refused.catch((err: Error) => err.message);
    expect(message).toContain(`pid ${process.pid}`);
    expect(message).toMatch(/started \d{4}-\d\d-\d\dT/);
    expect(message).toContain(dataDir);
    // The first one's scan is still running, not failed as "interrupted".
    expect((await first.core.services.repos.scans.findById(scanId))!.status).toBe('running');

    await t.close();
    await first.core.close();
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    const next = await secondCore(dataDir);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(true);
    await next.close();
  }, 30_000);

  it('takes over a lock whose process is gone, and keeps one whose process lives', async () => {
    const dataDir = freshDir();
    const file = path.join(dataDir, LOCK_FILE);
    const host = os.hostname();
    fs.writeFileSync(file, JSON.stringify({ pid: deadPid(), host, shell: 'server', startedAt: '2026-01-01T00:00:00.000Z', token: 'old' }));
    const core = await secondCore(dataDir);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, shell: 'server' });
    await core.close();

    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: live.pid, host, shell: 'cli', startedAt: '2026-01-01T00:00:00.000Z', token: 'live' }));
      await expect(secondCore(dataDir)).rejects.toThrow(`cli, pid ${live.pid} on ${host}, started 2026-01-01T00:00:00.000Z`);
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ pid: live.pid, token: 'live' });
    } finally {
      live.kill('SIGKILL');
    }
  }, 30_000);
});

describe.runIf(process.platform === 'linux')('data dir lock: a reused pid (Linux)', () => {
  const host = os.hostname();
  const lockOf = (pid: number, start: string, token: string) =>
    JSON.stringify({ pid, host, shell: 'server', startedAt: '2026-01-01T00:00:00.000Z', token, processStart: start });

  it('takes over a lock naming this process\'s pid with another start time, as after a container restart', async () => {
    const dataDir = freshDir();
    const file = path.join(dataDir, LOCK_FILE);
    const mine = processStart(process.pid);
    expect(mine).toMatch(/^[0-9a-f-]{36}\/\d+$/);
    const [bootId, ticks] = mine!.split('/');
    // Same boot, earlier start: the pid was another process's before.
    fs.writeFileSync(file, lockOf(process.pid, `${bootId}/${Number(ticks) - 1}`, 'before-restart'));
    const core = await secondCore(dataDir);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, processStart: mine });
    await core.close();
    // Another boot, same tick count.
    fs.writeFileSync(file, lockOf(process.pid, `00000000-0000-0000-0000-000000000000/${ticks}`, 'last-boot'));
    const again = await secondCore(dataDir);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, processStart: mine });
    await again.close();
  }, 30_000);

  it('keeps a lock whose pid still names the process that wrote it', async () => {
    const dataDir = freshDir();
    const file = path.join(dataDir, LOCK_FILE);
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => live.once('spawn', resolve));
      fs.writeFileSync(file, lockOf(live.pid!, processStart(live.pid!)!, 'live'));
      await expect(secondCore(dataDir)).rejects.toThrow(`server, pid ${live.pid} on ${host}`);
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ pid: live.pid, token: 'live' });
    } finally {
      live.kill('SIGKILL');
    }
  }, 30_000);
});

describe('data dir lock (portcullis serve)', () => {
  it('refuses a second serve on the same data dir with the first one\'s pid, and starts once the first stopped', async () => {
    const dataDir = freshDir();
    const first = await startServe(['--port', '0', '--data-dir', dataDir]);
    try {
      await expect(startServe(['--port', '0', '--data-dir', dataDir])).rejects.toThrow(
        new RegExp(`exited with 2:[\\s\\S]*in use by another Portcullis \\(server, pid ${first.child.pid} `),
      );
      // The first one still serves.
      expect((await fetch(`${first.url}/api/environment`)).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    const second = await startServe(['--port', '0', '--data-dir', dataDir]);
    expect(await second.stop()).toBe(0);
  }, 60_000);
});
