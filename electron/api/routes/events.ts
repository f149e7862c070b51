// GET /api/events: scan progress and finished events as server-sent events, for browsers and sync
// mode (the desktop app gets the same events on its IPC push channel). Only scans of APIs the
// caller can see are sent; progress is sent at most a few times a second per scan. A stream lives
// no longer than its session: it closes when the session is signed out, revoked or expires.

import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ScanEvent } from '../../scanner/events';
import type { Services } from '../../services';
import { databaseTroubleOf } from '../../store/health';
import type { AppEnv } from '../env';

const PROGRESS_EVERY_MS = 250;
const HEARTBEAT_MS = 25_000;
/** An idle stream re-checks its session this often (expiry, a deleted account). */
const SESSION_CHECK_MS = 5_000;

export function registerEventRoutes(app: Hono<AppEnv>, s: Services): void {
  /**
   * Is the session still open? While the database does not answer nobody can end it either: the stream
   * stays open and the check is made again at the next turn (null), rather than dropping every stream.
   */
  const sessionOpen = async (sessionId: string): Promise<boolean | null> => {
    try {
      return await s.accounts.sessionLive(sessionId);
    } catch (err) {
      if (databaseTroubleOf(err)) return null;
      throw err;
    }
  };

  app.get('/api/events', (c) => {
    const userId = c.get('user').id;
    const sessionId = c.get('session').id;
    return streamSSE(c, async (stream) => {
      const queue: ScanEvent[] = [];
      let wake: (() => void) | null = null;
      let open = true;
      let recheck = false;
      const lastProgress = new Map<string, number>();
      const off = s.scanEvents.subscribe((event) => {
        if (event.type === 'scan:progress') {
          const now = Date.now();
          if (now - (lastProgress.get(event.scanId) ?? 0) < PROGRESS_EVERY_MS) return;
          lastProgress.set(event.scanId, now);
        } else lastProgress.delete(event.scanId);
        queue.push(event);
        wake?.();
      });
      const offEnded = s.repos.sessions.onEnded(() => {
        recheck = true;
        wake?.();
      });
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      try {
        await stream.writeSSE({ event: 'ready', data: '{}' });
        let lastWrite = Date.now();
        let lastCheck = Date.now();
        while (open) {
          if (recheck || Date.now() - lastCheck >= SESSION_CHECK_MS) {
            recheck = false;
            lastCheck = Date.now();
            if ((await sessionOpen(sessionId)) === false) break;
          }
          const event = queue.shift();
          if (!event) {
            const timer = new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, Math.min(HEARTBEAT_MS, SESSION_CHECK_MS)).unref();
            });
            await timer;
            wake = null;
            if (open && !queue.length && !recheck && Date.now() - lastWrite >= HEARTBEAT_MS) {
              await stream.writeSSE({ event: 'heartbeat', data: '{}' });
              lastWrite = Date.now();
            }
            continue;
          }
          // The session and access are checked per event: a sign-out or a share revoked
          // mid-stream stops the flow.
          const live = await sessionOpen(sessionId);
          if (live === false) break;
          // Unknown while the database is down: the event is not sent unchecked.
          if (live === null) continue;
          if (!(await s.repos.apis.access(userId, event.apiId).catch(() => false))) continue;
          await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
          lastWrite = Date.now();
        }
      } finally {
        offEnded();
        off();
      }
    }, async (err) => {
      // Hono's default prints the error with its stack; a stream that fails ends with one line.
      s.logger[databaseTroubleOf(err) ? 'debug' : 'warn']('Event stream ended on an error', { error: err.message });
    });
  });
}
