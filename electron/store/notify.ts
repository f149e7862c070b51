// Notifications between the nodes of a team server: what one node publishes reaches the subscribers of
// every node, its own included, exactly once. On PostgreSQL through NOTIFY and one dedicated LISTEN
// connection per node; on SQLite (one node) in process only.
//
// The publishing node delivers to its own subscribers at once, in process, and its listener skips the
// notifications carrying its own node id: local delivery keeps its order and does not wait for the
// database, and the other nodes get the same payloads in the order they were published (one publish at
// a time, each committed before the next).

import { sql } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../log';
import { redactPassword, serverOf, type Db } from './database';
import { troubleOf, type DatabaseHealth } from './health';

/** What nodes tell each other (`scan_cancelled`: a scan running on another node was cancelled here). */
export type NotifyChannel = 'scan_events' | 'session_ended' | 'schedules_changed' | 'scan_cancelled';

const CHANNELS: readonly NotifyChannel[] = ['scan_events', 'session_ended', 'schedules_changed', 'scan_cancelled'];

/** Where a payload came from: this node, or another one through the database. */
export type NotifyOrigin = 'local' | 'remote';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const NOTIFY_MAX_BYTES = 7_999;

/** The one PostgreSQL channel every node listens on (per database); the envelope names the notifier's channel. */
export const PG_NOTIFY_CHANNEL = 'portcullis';

export interface PublishOptions<T> {
  /**
   * A smaller stand-in (a reference the receivers resolve) for a payload too large to send to the other
   * nodes; without it, or when it is still too large, the other nodes get nothing (a warning is logged).
   * Local subscribers always get the payload itself.
   */
  tooLarge?: (payload: T) => unknown;
}

export interface Notifier {
  /** Delivers to this node's subscribers now and sends to the other nodes; never throws, never waits. */
  publish<T>(channel: NotifyChannel, payload: T, options?: PublishOptions<T>): void;
  /**
   * Every payload of the channel, from any node, once. A remote payload is parsed JSON from the
   * database: the listener validates it. Returns the unsubscribe function.
   */
  subscribe(channel: NotifyChannel, listener: (payload: unknown, origin: NotifyOrigin) => void): () => void;
  /**
   * Called when the LISTEN connection is back after it dropped: what other nodes published meanwhile was
   * lost, so subscribers re-read what they need from the database.
   */
  onReconnect(listener: () => void): () => void;
  /** Resolves once everything published so far has been sent (or failed). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

interface Envelope {
  /** The publishing node. */
  n: string;
  c: NotifyChannel;
  p: unknown;
}

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return typeof e.n === 'string' && typeof e.c === 'string' && (CHANNELS as readonly string[]).includes(e.c) && 'p' in e;
}

/** A channel's local subscribers; one failing listener neither stops the others nor the publisher. */
function subscribers(logger: Logger) {
  const byChannel = new Map<NotifyChannel, Set<(payload: unknown, origin: NotifyOrigin) => void>>();
  const reconnected = new Set<() => void>();
  const safely = (run: () => void, what: string): void => {
    try {
      run();
    } catch (err) {
      logger.warn('A notification listener failed', { what, error: err });
    }
  };
  return {
    deliver(channel: NotifyChannel, payload: unknown, origin: NotifyOrigin): void {
      for (const listener of [...(byChannel.get(channel) ?? [])]) safely(() => listener(payload, origin), channel);
    },
    add(channel: NotifyChannel, listener: (payload: unknown, origin: NotifyOrigin) => void): () => void {
      let set = byChannel.get(channel);
      if (!set) byChannel.set(channel, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
    onReconnect(listener: () => void): () => void {
      reconnected.add(listener);
      return () => void reconnected.delete(listener);
    },
    reconnected(): void {
      for (const listener of [...reconnected]) safely(listener, 'reconnect');
    },
  };
}

/** One node alone (SQLite, the desktop app, the CLI, a repository built in a test): in process only. */
export function inProcessNotifier(logger?: Logger): Notifier {
  const local = subscribers(logger ?? silentLogger);
  return {
    publish: (channel, payload) => local.deliver(channel, payload, 'local'),
    subscribe: (channel, listener) => local.add(channel, listener),
    onReconnect: (listener) => local.onReconnect(listener),
    flush: async () => undefined,
    close: async () => undefined,
  };
}

const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export interface PostgresNotifierOptions {
  url: string;
  /** The store's pool: publishing uses it, the LISTEN connection is separate. */
  db: Db;
  nodeId: string;
  logger: Logger;
  /** Reconnect delays: the first, doubled per failed attempt up to the last. */
  backoff?: { firstMs: number; maxMs: number };
  /** The store's: a dropped connection may be the first sign of an outage, a reopened one its end. */
  health?: DatabaseHealth;
}

const DEFAULT_BACKOFF = { firstMs: 250, maxMs: 10_000 };
const CONNECT_TIMEOUT_MS = 10_000;
/** How the LISTEN connections show in pg_stat_activity. */
export const LISTEN_APPLICATION_NAME = 'portcullis-notify';

/**
 * Opens the node's LISTEN connection (a plain pg.Client: a pooled connection would be handed to other
 * queries and recycled) and resolves once it listens; a failure then is thrown. A connection that
 * drops later is reopened with backoff, and `onReconnect` listeners are told.
 */
export async function createPostgresNotifier({ url, db, nodeId, logger, backoff = DEFAULT_BACKOFF, health }: PostgresNotifierOptions): Promise<Notifier> {
  const { default: pg } = await import('pg');
  const local = subscribers(logger);
  const server = serverOf(url);
  const reasonOf = (err: unknown): string => redactPassword((err as Error)?.message || String(err), url);
  let current: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let failures = 0;
  let sending: Promise<void> = Promise.resolve();

  function receive(text: string | undefined): void {
    if (!text) return;
    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch {
      return;
    }
    if (!isEnvelope(envelope) || envelope.n === nodeId) return;
    local.deliver(envelope.c, envelope.p, 'remote');
  }

  function dropped(client: pg.Client, err: unknown): void {
    if (client !== current) return;
    current = null;
    client.end().catch(() => undefined);
    if (closed) return;
    logger.warn('The notifications connection to PostgreSQL dropped; reconnecting', { server, reason: reasonOf(err) });
    reconnectLater();
  }

  function reconnectLater(): void {
    if (closed || retry) return;
    const delay = Math.min(backoff.maxMs, backoff.firstMs * 2 ** failures);
    failures += 1;
    retry = setTimeout(() => {
      retry = null;
      open().then(
        () => {
          failures = 0;
          health?.answered();
          logger.info('The notifications connection to PostgreSQL is back', { server });
          local.reconnected();
        },
        (err: unknown) => {
          if (closed) return;
          // While the database is down every attempt fails: the outage is logged once (store/health.ts).
          const quiet = health?.failed(err) === 'unavailable';
          logger[quiet ? 'debug' : 'warn']('Cannot reopen the notifications connection to PostgreSQL', { server, reason: reasonOf(err), retry_ms: Math.min(backoff.maxMs, backoff.firstMs * 2 ** failures) });
          reconnectLater();
        },
      );
    }, delay);
    retry.unref();
  }

  async function open(): Promise<void> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, application_name: LISTEN_APPLICATION_NAME });
    current = client;
    client.on('error', (err) => dropped(client, err));
    client.on('end', () => dropped(client, new Error('the connection ended')));
    client.on('notification', (msg) => {
      if (msg.channel === PG_NOTIFY_CHANNEL) receive(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_NOTIFY_CHANNEL}`);
    } catch (err) {
      if (current === client) current = null;
      client.end().catch(() => undefined);
      throw err;
    }
    if (closed) {
      current = null;
      await client.end().catch(() => undefined);
    }
  }

  try {
    await open();
  } catch (err) {
    throw new Error(`Cannot open the notifications connection to PostgreSQL at ${server}: ${reasonOf(err)}`);
  }

  const send = (text: string, channel: NotifyChannel): void => {
    sending = sending
      .then(() => sql`SELECT pg_notify(${PG_NOTIFY_CHANNEL}, ${text})`.execute(db))
      .then(
        () => undefined,
        (err: unknown) => logger[troubleOf(err) ? 'debug' : 'warn']('Could not notify the other nodes', { channel, reason: reasonOf(err) }),
      );
  };

  return {
    publish(channel, payload, options) {
      local.deliver(channel, payload, 'local');
      if (closed) return;
      let text = JSON.stringify({ n: nodeId, c: channel, p: payload } satisfies Envelope);
      if (Buffer.byteLength(text) > NOTIFY_MAX_BYTES) {
        const bytes = Buffer.byteLength(text);
        const stand = options?.tooLarge?.(payload);
        text = stand === undefined ? '' : JSON.stringify({ n: nodeId, c: channel, p: stand } satisfies Envelope);
        if (!text || Buffer.byteLength(text) > NOTIFY_MAX_BYTES) {
          logger.warn('A notification is too large for the other nodes; not sent', { channel, bytes });
          return;
        }
      }
      send(text, channel);
    },
    subscribe: (channel, listener) => local.add(channel, listener),
    onReconnect: (listener) => local.onReconnect(listener),
    flush: () => sending,
    async close() {
      if (closed) return;
      closed = true;
      if (retry) clearTimeout(retry);
      retry = null;
      await sending;
      const client = current;
      current = null;
      await client?.end().catch(() => undefined);
    },
  };
}

/** The notifier of a store: across nodes on PostgreSQL, in process on SQLite. */
export async function createNotifier(options: { store: { db: Db; dialect: { kind: string }; health?: DatabaseHealth }; databaseUrl: string | undefined; nodeId: string; logger: Logger }): Promise<Notifier> {
  const { store, databaseUrl, nodeId, logger } = options;
  if (store.dialect.kind !== 'postgres' || databaseUrl === undefined) return inProcessNotifier(logger);
  return createPostgresNotifier({ url: databaseUrl, db: store.db, nodeId, logger, health: store.health });
}
