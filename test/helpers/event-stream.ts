// Reads GET /api/events (server-sent events) as a browser's EventSource would, for tests: every event
// with its parsed data, a wait for one that matches, and the end of the stream.

import { expect } from 'vitest';

export interface StreamedEvent {
  event: string;
  data: unknown;
}

export interface EventStream {
  events: StreamedEvent[];
  until(pred: (e: StreamedEvent) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
}

export async function openEventStream(url: string, token: string): Promise<EventStream> {
  const controller = new AbortController();
  const res = await fetch(`${url}/api/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: StreamedEvent[] = [];
  const waiters: (() => void)[] = [];
  const ended = (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown;
          events.push({ event, data });
          waiters.splice(0).forEach((w) => w());
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    async until(pred, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      while (!events.some(pred)) {
        if (Date.now() > end) throw new Error(`no matching event; got ${JSON.stringify(events.map((e) => e.event))}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    close: () => controller.abort(),
    ended,
  };
}
