// Scan events out of the core: pushed to the window on the one event channel (progress bars without
// polling) — only for scans of APIs the window's signed-in user can see, as GET /api/events does for
// browsers — and a native notification when a scan ends, if the scan's owner wants one
// (preferences.notifications.scanCompleted).

import { SCAN_MESSAGES } from '../../shared/messages';
import { vulnerabilitiesText } from '../../shared/severity';
import { hashToken } from '../accounts/tokens';
import type { Clock } from '../clock';
import { EVENT_CHANNEL } from '../ipc-bridge';

/** The shape of the core's scan events (electron/scanner/events.ts), as far as the shell reads it. */
export type ScanEventLike =
  | { type: 'scan:progress'; scanId: string; apiId: string; userId: string; done: number; total: number; findings: number; requestsSent?: number }
  | { type: 'scan:finished'; scanId: string; apiId: string; userId: string; status: string; findings: number; score: number | null; failureReason?: string | null };

export interface ScanEventSource {
  subscribe(listener: (event: ScanEventLike) => void): () => void;
}

export interface EventTarget {
  /** The window's webContents.send, or nothing when there is no window (the event is dropped). */
  send(channel: string, payload: unknown): void;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Only the fields the renderer needs, copied: nothing else of the core's objects crosses to the page. */
export function toRendererEvent(e: ScanEventLike): Record<string, unknown> | null {
  if (e.type === 'scan:progress') {
    return {
      type: e.type,
      scanId: e.scanId,
      apiId: e.apiId,
      userId: e.userId,
      done: num(e.done),
      total: num(e.total),
      requestsSent: num(e.requestsSent),
      findings: num(e.findings),
    };
  }
  if (e.type === 'scan:finished') {
    return {
      type: e.type,
      scanId: e.scanId,
      apiId: e.apiId,
      userId: e.userId,
      status: String(e.status),
      failureReason: typeof e.failureReason === 'string' ? e.failureReason : null,
      findings: num(e.findings),
      score: e.score ?? null,
    };
  }
  return null;
}

/** May the window see this event? */
export type EventGate = (event: ScanEventLike) => Promise<boolean>;

/** Progress of one scan is sent at most this often (as the browsers' event stream does). */
export const PROGRESS_EVERY_MS = 250;

/**
 * Forwards events in order (each waits for the gate of the one before), progress thinned per scan.
 * Without a window the event is dropped.
 */
export function forwardScanEvents(source: ScanEventSource, target: () => EventTarget | null, allowed: EventGate, now: () => number = Date.now): () => void {
  const lastProgress = new Map<string, number>();
  let chain = Promise.resolve();
  return source.subscribe((event) => {
    if (event.type === 'scan:progress') {
      const t = now();
      if (t - (lastProgress.get(event.scanId) ?? -Infinity) < PROGRESS_EVERY_MS) return;
      lastProgress.set(event.scanId, t);
    } else lastProgress.delete(event.scanId);
    const payload = toRendererEvent(event);
    if (!payload) return;
    chain = chain
      .then(async () => {
        if (await allowed(event)) target()?.send(EVENT_CHANNEL, payload);
      })
      .catch(() => undefined);
  });
}

export interface WindowUserDeps {
  /** The bearer token of the window's latest API call (null before any, or after logout). */
  currentToken(): string | null;
  repos: {
    sessions: { findByTokenHash(hash: string): Promise<{ user_id: string; last_used_at: string; idle_timeout_minutes: number; expires_at: string } | undefined> };
    apis: { access(userId: string, apiId: string): Promise<unknown> };
  };
  clock: Clock;
}

/**
 * The gate for the window: the user of its current session (looked up without touching the session,
 * so a running scan does not keep an idle session alive) must be able to see the scan's API.
 */
export function windowUserGate(deps: WindowUserDeps): EventGate {
  return async (event) => {
    const token = deps.currentToken();
    if (!token) return false;
    const session = await deps.repos.sessions.findByTokenHash(hashToken(token));
    if (!session) return false;
    const now = deps.clock.now();
    const idleEnd = new Date(session.last_used_at).getTime() + session.idle_timeout_minutes * 60_000;
    if (now.getTime() >= idleEnd || now.toISOString() >= session.expires_at) return false;
    return !!(await deps.repos.apis.access(session.user_id, event.apiId));
  };
}

export interface NotifierDeps {
  source: ScanEventSource;
  /** The owner's notifications.scanCompleted preference. */
  wantsScanNotifications(userId: string): Promise<boolean>;
  apiName(apiId: string): Promise<string | null>;
  notify(notification: { title: string; body: string }): void;
  log?(message: string, fields?: Record<string, unknown>): void;
}

/** Shows one system notification per finished scan whose owner asked for them. */
export function notifyFinishedScans(deps: NotifierDeps): () => void {
  return deps.source.subscribe((event) => {
    if (event.type !== 'scan:finished') return;
    void (async () => {
      try {
        if (!(await deps.wantsScanNotifications(event.userId))) return;
        const name = (await deps.apiName(event.apiId)) ?? 'your API';
        const title = event.status === 'completed' ? 'Scan finished' : event.status === 'cancelled' ? 'Scan cancelled' : 'Scan failed';
        const detail = event.status === 'completed' ? ` ${vulnerabilitiesText(event.findings)}.` : '';
        deps.notify({ title, body: `${SCAN_MESSAGES.finished(name)}${detail}` });
      } catch (err) {
        deps.log?.('Scan notification failed', { error: err instanceof Error ? err.message : String(err) });
      }
    })();
  });
}

/** The notifier's two look-ups, from the core's repositories. */
export function coreLookups(repos: {
  userSettings: { getPreferences(userId: string): Promise<{ notifications: { scanCompleted: boolean } }> };
  apis: { findById(id: string): Promise<{ name: string } | undefined> };
}): Pick<NotifierDeps, 'wantsScanNotifications' | 'apiName'> {
  return {
    wantsScanNotifications: async (userId) => (await repos.userSettings.getPreferences(userId)).notifications.scanCompleted === true,
    apiName: async (apiId) => (await repos.apis.findById(apiId))?.name ?? null,
  };
}
