// Scan events out of the core: pushed to the window on the one event channel (progress bars without
// polling), and a native notification when a scan ends, if the scan's owner wants one
// (preferences.notifications.scanCompleted).

import { SCAN_MESSAGES } from '../../shared/messages';
import { EVENT_CHANNEL } from '../ipc-bridge';

/** The shape of the core's scan events (electron/scanner/events.ts), as far as the shell reads it. */
export type ScanEventLike =
  | { type: 'scan:progress'; scanId: string; apiId: string; userId: string; done: number; total: number; findings: number }
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
    return { type: e.type, scanId: e.scanId, apiId: e.apiId, userId: e.userId, done: num(e.done), total: num(e.total), findings: num(e.findings) };
  }
  if (e.type === 'scan:finished') {
    return { type: e.type, scanId: e.scanId, apiId: e.apiId, userId: e.userId, status: String(e.status), findings: num(e.findings), score: e.score ?? null };
  }
  return null;
}

export function forwardScanEvents(source: ScanEventSource, target: () => EventTarget | null): () => void {
  return source.subscribe((event) => {
    const payload = toRendererEvent(event);
    if (payload) target()?.send(EVENT_CHANNEL, payload);
  });
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
        const detail = event.status === 'completed' ? ` ${event.findings} finding${event.findings === 1 ? '' : 's'}.` : '';
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
