// GET /api/events: scan progress and finished events as server-sent events, for browsers and sync
// mode (the desktop app gets the same events on its IPC push channel). Only scans of APIs the
// caller can see are sent; progress is sent at most a few times a second per scan.

import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ScanEvent } from '../../scanner/events';
import type { Services } from '../../services';
import type { AppEnv } from '../env';

const PROGRESS_EVERY_MS = 250;
const HEARTBEAT_MS = 25_000;

export function registerEventRoutes(app: Hono<AppEnv>, s: Services): void {
  app.get('/api/events', (c) => {
    const userId = c.get('user').id;
    return streamSSE(c, async (stream) => {
      const queue: ScanEvent[] = [];
      let wake: (() => void) | null = null;
      let open = true;
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
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      try {
        await stream.writeSSE({ event: 'ready', data: '{}' });
        while (open) {
          const event = queue.shift();
          if (!event) {
            const timer = new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, HEARTBEAT_MS).unref();
            });
            await timer;
            wake = null;
            if (open && !queue.length) await stream.writeSSE({ event: 'heartbeat', data: '{}' });
            continue;
          }
          // Access is checked per event: a share revoked mid-stream stops the flow.
          if (!(await s.repos.apis.access(userId, event.apiId))) continue;
          await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
        }
      } finally {
        off();
      }
    });
  });
}
