// Starts a throwaway PostgreSQL cluster for tests (initdb + postgres in a temp dir, loopback only) and
// removes it again. Tests and CI run as root, which initdb and postgres refuse: the server processes then
// run as the `postgres` system user (spawn's uid/gid), in a temp dir that user owns.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** Where PostgreSQL's server binaries are looked for, in order (PORTCULLIS_PG_BIN first when set). */
const BIN_DIRS = ['/usr/local/bin', '/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];
const SYSTEM_USER = 'postgres';
const SUPERUSER = 'portcullis';
const START_TIMEOUT_MS = 20_000;
/** Cluster settings for a disposable test database: no durability, no background work, little memory. */
const SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  'fsync = off',
  'synchronous_commit = off',
  'full_page_writes = off',
  'wal_level = minimal',
  'max_wal_senders = 0',
  'autovacuum = off',
  'shared_buffers = 32MB',
  'max_connections = 60',
  "log_timezone = 'UTC'",
  "timezone = 'UTC'",
];

export interface TestPostgres {
  /** Superuser URL of the cluster's `postgres` database over TCP (127.0.0.1). */
  url: string;
  host: string;
  port: number;
  /** Directory of the cluster's unix socket (a `host` for clients that prefer the socket). */
  socketDir: string;
  /** Milliseconds from the call to a cluster accepting connections (initdb included). */
  startupMs: number;
  /** Creates a database and returns its URL. Names: lowercase letters, digits, underscores. */
  createDatabase(name: string): Promise<string>;
  /** The URL of a database of this cluster (created or not). */
  urlFor(database: string): string;
  /**
   * Stops the server and keeps its data, as an outage would: `fast` (pg_ctl stop -m fast: sessions are
   * told and closed) or `immediate` (-m immediate: every process quits at once, as in a crash).
   */
  halt(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts a halted server again on the same port and data; resolves once it accepts connections. */
  resume(): Promise<void>;
  /** Stops the server (immediate shutdown) and deletes the temp dir. Safe to call twice. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

interface RunAs {
  uid: number;
  gid: number;
}

/** Why PostgreSQL tests cannot run here, or null when they can. */
export function postgresSkipReason(): string | null {
  const bins = findBinaries();
  if (!bins) return `PostgreSQL server binaries (initdb, postgres) not found in ${binDirs().join(', ')} (set PORTCULLIS_PG_BIN or install Debian's postgresql)`;
  if (isRoot() && !systemUser()) return `running as root and there is no '${SYSTEM_USER}' system user to run PostgreSQL as (initdb refuses root)`;
  return null;
}

/**
 * Where the cluster's temp dir goes: the run's temp dir, unless the server runs as another user who
 * cannot reach it (a workspace under a private home, as CI's TMPDIR is): then the machine's /tmp.
 */
function clusterParent(otherUser: boolean): string {
  const mine = os.tmpdir();
  if (!otherUser) return mine;
  const parts = path.resolve(mine).split(path.sep).filter(Boolean);
  const reachable = parts.every((_, i) => (fs.statSync(path.sep + parts.slice(0, i + 1).join(path.sep)).mode & 0o001) !== 0);
  return reachable ? mine : '/tmp';
}

export async function startPostgres(): Promise<TestPostgres> {
  const started = performance.now();
  const reason = postgresSkipReason();
  if (reason) throw new Error(reason);
  const bins = findBinaries()!;
  const runAs = isRoot() ? systemUser()! : null;

  const dir = fs.mkdtempSync(path.join(clusterParent(runAs !== null), 'portcullis-pg-'));
  let server: ChildProcess | null = null;
  const cleanUp = (): void => {
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGQUIT');
    fs.rmSync(dir, { recursive: true, force: true });
    unregister(server);
  };
  // A test process that exits without stop() (a failed hook, a crash) still leaves nothing behind.
  process.once('exit', cleanUp);
  try {
    if (runAs) fs.chownSync(dir, runAs.uid, runAs.gid);
    fs.chmodSync(dir, 0o700);
    const password = randomBytes(18).toString('base64url');
    const dataDir = path.join(dir, 'data');
    const pwFile = path.join(dir, 'password');
    fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
    if (runAs) fs.chownSync(pwFile, runAs.uid, runAs.gid);

    run(bins.initdb, ['-D', dataDir, '-U', SUPERUSER, `--pwfile=${pwFile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'], dir, runAs);
    fs.rmSync(pwFile);
    fs.appendFileSync(path.join(dataDir, 'postgresql.conf'), `\n# portcullis test cluster\n${SETTINGS.join('\n')}\nunix_socket_directories = '${dir}'\n`);

    // The free port is probed, not reserved: another process may take it first, so a bind failure retries.
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        server = await startServer(bins.postgres, dataDir, port, dir, runAs);
        register(server, dir);
        break;
      } catch (error) {
        if (attempt < 3 && /could not bind|address already in use/i.test(String(error))) continue;
        throw error;
      }
    }

    const host = '127.0.0.1';
    const urlFor = (database: string): string => `postgres://${SUPERUSER}:${password}@${host}:${port}/${encodeURIComponent(database)}`;
    let running = server;
    let stopped = false;
    return {
      url: urlFor('postgres'),
      host,
      port,
      socketDir: dir,
      startupMs: performance.now() - started,
      urlFor,
      async createDatabase(name) {
        if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a test database name: ${name}`);
        const client = new pg.Client({ connectionString: urlFor('postgres') });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE "${name}"`);
        } finally {
          await client.end();
        }
        return urlFor(name);
      },
      async halt(mode) {
        unregister(running);
        await stopServer(running, mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
      },
      async resume() {
        running = server = await startServer(bins.postgres, dataDir, port, dir, runAs);
        register(running, dir);
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await stopServer(running);
        process.removeListener('exit', cleanUp);
        fs.rmSync(dir, { recursive: true, force: true });
        unregister(running);
      },
    };
  } catch (error) {
    cleanUp();
    process.removeListener('exit', cleanUp);
    throw error;
  }
}

function binDirs(): string[] {
  const fromEnv = process.env.PORTCULLIS_PG_BIN;
  return fromEnv ? [fromEnv, ...BIN_DIRS] : BIN_DIRS;
}

function findBinaries(): Binaries | null {
  for (const dir of binDirs()) {
    const initdb = path.join(dir, 'initdb');
    const postgres = path.join(dir, 'postgres');
    if (isExecutable(initdb) && isExecutable(postgres)) return { initdb: fs.realpathSync(initdb), postgres: fs.realpathSync(postgres) };
  }
  return null;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

let cachedUser: RunAs | null | undefined;
function systemUser(): RunAs | null {
  if (cachedUser !== undefined) return cachedUser;
  try {
    // getent, not /etc/passwd: the user may come from any NSS source.
    const fields = execFileSync('getent', ['passwd', SYSTEM_USER], { encoding: 'utf8' }).trim().split(':');
    cachedUser = { uid: Number(fields[2]), gid: Number(fields[3]) };
  } catch {
    cachedUser = null;
  }
  return cachedUser;
}

/** A clean environment: no PG* variables of the caller, C locale so server messages are in English. */
function serverEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C', LC_ALL: 'C', TZ: 'UTC' };
}

function run(file: string, args: string[], cwd: string, runAs: RunAs | null): void {
  try {
    execFileSync(file, args, { cwd, env: serverEnv(cwd), stdio: ['ignore', 'pipe', 'pipe'], ...(runAs ?? {}) });
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer; message: string };
    throw new Error(`${path.basename(file)} failed: ${e.message}\n${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Spawns the postmaster in the foreground and resolves once it accepts connections. */
function startServer(postgres: string, dataDir: string, port: number, cwd: string, runAs: RunAs | null): Promise<ChildProcess> {
  const child = spawn(postgres, ['-D', dataDir, '-p', String(port)], {
    cwd,
    env: serverEnv(cwd),
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(runAs ?? {}),
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.stderr!.removeAllListeners('data');
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      reject(new Error(`PostgreSQL did not start (${why}):\n${log}`));
    };
    const timer = setTimeout(() => fail(`no ready line within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`exited with ${code ?? signal}`));
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (!log.includes('database system is ready to accept connections')) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      // Keep draining stderr so a chatty server never blocks on a full pipe.
      child.stderr!.removeAllListeners('data');
      child.stderr!.resume();
      resolve(child);
    });
  });
}

/**
 * Immediate shutdown (SIGQUIT) by default: the data is thrown away, so nothing needs a clean checkpoint.
 * SIGINT is pg_ctl's fast shutdown.
 */
function stopServer(child: ChildProcess, signal: 'SIGQUIT' | 'SIGINT' = 'SIGQUIT'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

let shared: Promise<TestPostgres> | null = null;
let sharedDatabases = 0;

/**
 * A new, empty database on this test process's cluster, which starts on first use and stops when the
 * process exits (or at `stopSharedCluster`). Tests that need a PostgreSQL database take one from here.
 */
export async function freshDatabase(prefix = 'test'): Promise<string> {
  shared ??= startPostgres();
  sharedDatabases += 1;
  return (await shared).createDatabase(`${prefix}_${process.pid}_${sharedDatabases}`);
}

/** Stops the shared cluster, if one started (an afterAll of a file that used `freshDatabase`). */
export async function stopSharedCluster(): Promise<void> {
  const cluster = shared;
  shared = null;
  if (cluster) await (await cluster).stop();
}

/**
 * A test worker may be ended without its exit handlers (the runner terminates it), which would leave
 * its cluster running. With PORTCULLIS_PG_REGISTRY set (vitest's global setup does), every started
 * cluster is listed there until stopped, and `stopRegisteredClusters` ends what is left after the run.
 */
const REGISTRY_ENV = 'PORTCULLIS_PG_REGISTRY';

function entryOf(server: ChildProcess | null): string | null {
  const registry = process.env[REGISTRY_ENV];
  return registry && server?.pid ? path.join(registry, `${server.pid}.json`) : null;
}

function register(server: ChildProcess, dir: string): void {
  const entry = entryOf(server);
  if (entry) fs.writeFileSync(entry, JSON.stringify({ pid: server.pid, dir }));
}

function unregister(server: ChildProcess | null): void {
  const entry = entryOf(server);
  if (entry) fs.rmSync(entry, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops every cluster still listed in `registry` (immediate shutdown) and deletes its files; returns how many. */
export async function stopRegisteredClusters(registry: string): Promise<number> {
  let stopped = 0;
  for (const name of fs.existsSync(registry) ? fs.readdirSync(registry) : []) {
    const file = path.join(registry, name);
    const { pid, dir } = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number; dir: string };
    if (alive(pid)) {
      process.kill(pid, 'SIGQUIT');
      for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      if (alive(pid)) process.kill(pid, 'SIGKILL');
      stopped += 1;
    }
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(file, { force: true });
  }
  return stopped;
}

export const PG_REGISTRY_ENV = REGISTRY_ENV;
