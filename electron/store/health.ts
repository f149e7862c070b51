// Whether this node's database answers. Errors that mean the database is down (a refused or dropped
// connection, a server shutting down) or that the node has no free connection (a full pool) are told
// apart from every other error: requests that meet them are answered 503 with Retry-After (api/app.ts)
// rather than 500 with a stack, and an outage is logged once when it starts and once when it ends,
// however many requests, timers and connections meet it.

import type { Logger } from '../log';

/** `unavailable`: the database cannot be reached; `busy`: it can, but not now (no free connection). */
export type DatabaseTrouble = 'unavailable' | 'busy';

/** What a client is told to wait before trying again. */
export const RETRY_AFTER_SECONDS: Record<DatabaseTrouble, number> = { unavailable: 5, busy: 2 };

/** Socket errors of a connection that cannot be made or was cut. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN']);
/** PostgreSQL's: admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down). */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03']);
/** too_many_connections. */
const BUSY_CODES = new Set(['53300']);
/** pg's own errors carry no code. */
const UNAVAILABLE_MESSAGES = [/^Connection terminated/, /is not queryable$/];
/** pg-pool's wait for a free connection ran out. */
const BUSY_MESSAGES = [/^timeout exceeded when trying to connect$/];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The database trouble an error stands for (its causes and, for Node's AggregateError, its parts included), or null. */
export function troubleOf(err: unknown, depth = 0): DatabaseTrouble | null {
  if (depth > 4 || typeof err !== 'object' || err === null) return null;
  const e = err as ErrorLike;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08')) return 'unavailable';
  if (BUSY_CODES.has(code)) return 'busy';
  if (UNAVAILABLE_MESSAGES.some((m) => m.test(message))) return 'unavailable';
  if (BUSY_MESSAGES.some((m) => m.test(message))) return 'busy';
  for (const inner of [e.cause, ...(Array.isArray(e.errors) ? e.errors : [])]) {
    const found = troubleOf(inner, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Errors the store's pool handed on (database.ts marks them): only those can mean the database's trouble. */
const fromDatabase = new WeakSet<object>();

/** Marks an error as the database's (the pool's or a query's); returns it. */
export function markDatabaseError<T>(err: T): T {
  if (typeof err === 'object' && err !== null) fromDatabase.add(err);
  return err;
}

/**
 * The database trouble behind an error a request met, or null: only errors the store's pool handed on
 * count, so a refused connection to, say, the mail server is not taken for the database's.
 */
export function databaseTroubleOf(err: unknown): DatabaseTrouble | null {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as ErrorLike).cause, depth += 1) {
    if (fromDatabase.has(e)) return troubleOf(e);
  }
  return null;
}

export interface DatabaseHealth {
  /**
   * What trouble an error means, or null when it is not the database's. An unavailable database starts
   * an outage (logged once); a busy one is not an outage.
   */
  failed(err: unknown): DatabaseTrouble | null;
  /** The database answered (a new connection was made): an outage, if one was on, is over (logged once). */
  answered(): void;
  /** Is an outage on? */
  readonly down: boolean;
}

/** `server`: host:port for the log lines; `redact` keeps a password out of a driver's message. */
export function createDatabaseHealth(logger: Logger, server: string, redact: (text: string) => string = (t) => t): DatabaseHealth {
  let downSince: number | null = null;
  return {
    failed(err) {
      const trouble = troubleOf(err);
      if (trouble === 'unavailable' && downSince === null) {
        downSince = Date.now();
        logger.error('The database is unreachable: requests are answered 503 until it is back', { server, reason: redact(String((err as Error)?.message || err)) });
      }
      return trouble;
    },
    answered() {
      if (downSince === null) return;
      logger.info('The database is reachable again', { server, down_ms: Date.now() - downSince });
      downSince = null;
    },
    get down() {
      return downSince !== null;
    },
  };
}

/** SQLite is a file in the process: it has no outages (and its errors are never marked as the pool's). */
export const sqliteHealth: DatabaseHealth = {
  failed: () => null,
  answered: () => undefined,
  down: false,
};
