// Scan progress and finished events for the renderer, whatever the transport: the preload's push
// channel on the desktop, the server-sent event stream GET /api/events over HTTP (browsers, sync
// mode). Reconnects with back-off until unsubscribed.

import type { ScanCurrent, ScanPace } from '../../../shared/contract';
import { request, usesBridge } from './request';

export interface ScanProgressEvent {
  type: 'scan:progress';
  scanId: string;
  apiId: string;
  done: number;
  total: number;
  requestsSent: number;
  findings: number;
  current?: ScanCurrent | null;
  pace?: ScanPace | null;
}

export interface ScanFinishedEvent {
  type: 'scan:finished';
  scanId: string;
  apiId: string;
  status: 'completed' | 'failed' | 'cancelled';
  failureReason: string | null;
  findings: number;
  score: number | null;
}

export type ScanEvent = ScanProgressEvent | ScanFinishedEvent;

function isScanEvent(v: unknown): v is ScanEvent {
  const t = (v as { type?: unknown } | null)?.type;
  return t === 'scan:progress' || t === 'scan:finished';
}

/** Parses one "event: ...\ndata: ..." block of a server-sent event stream. */
export function parseSseBlock(block: string): unknown {
  const data = block
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).trimStart())
    .join('\n');
  if (!data) return null;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return null;
  }
}

/** Calls `listener` for every scan event the signed-in user may see; returns the unsubscribe function. */
export function subscribeScanEvents(listener: (event: ScanEvent) => void, token: () => string | null): () => void {
  if (usesBridge() && window.portcullis) {
    return window.portcullis.subscribe((payload) => {
      if (isScanEvent(payload)) listener(payload);
    });
  }
  const controller = new AbortController();
  let delay = 1000;
  const loop = async () => {
    while (!controller.signal.aborted) {
      const t = token();
      try {
        if (!t) throw new Error('not signed in');
        const res = await request('/api/events', { headers: { authorization: `Bearer ${t}` }, signal: controller.signal });
        if (!res.ok || !res.body) throw new Error(`status ${res.status}`);
        delay = 1000;
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value;
          let i: number;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const parsed = parseSseBlock(buf.slice(0, i));
            buf = buf.slice(i + 2);
            if (isScanEvent(parsed)) listener(parsed);
          }
        }
      } catch {
        // Dropped, refused or not signed in: try again later.
      }
      if (controller.signal.aborted) break;
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 30_000);
    }
  };
  void loop();
  return () => controller.abort();
}
