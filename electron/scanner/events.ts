// Scan events for whoever shows progress: the desktop shell forwards them to the renderer on the
// `api:event` channel; the CLI draws its progress bar from them; the team server streams them at
// /api/events. With several nodes, a scan's events reach every node through the notifier.

import { EventEmitter } from 'node:events';
import type { ScanStatus } from '../../shared/constants';
import type { ScanCurrent, ScanPace } from '../../shared/contract';
import { inProcessNotifier, type Notifier } from '../store/notify';

export interface ScanProgressEvent {
  type: 'scan:progress';
  scanId: string;
  apiId: string;
  userId: string;
  done: number;
  total: number;
  requestsSent: number;
  findings: number;
  /** The check the scan last started and its endpoint, when the runner knows them. */
  current?: ScanCurrent | null;
  /** The scan's pace toward the API (requests in flight allowed now, the most, the rate). */
  pace?: ScanPace | null;
}

export interface ScanFinishedEvent {
  type: 'scan:finished';
  scanId: string;
  apiId: string;
  userId: string;
  status: Exclude<ScanStatus, 'created' | 'running'>;
  failureReason: string | null;
  findings: number;
  score: number | null;
}

export type ScanEvent = ScanProgressEvent | ScanFinishedEvent;

/**
 * What is sent to the other nodes instead of an event too large for a notification (a long failure
 * reason or endpoint): the event without its long texts. The receiving node reads the failure reason
 * from the scan's row; a progress event's current check is left out (the next one brings it).
 */
export type ScanEventReference = { ref: true } & (Omit<ScanProgressEvent, 'current'> | Omit<ScanFinishedEvent, 'failureReason'>);

export interface ScanEventsOptions {
  /** Carries events to every node; without one, events stay in this process. */
  notifier?: Notifier;
  /** A finished scan's failure reason, for a reference received from another node. */
  failureReasonOf?: (scanId: string) => Promise<string | null>;
}

export class ScanEvents {
  private readonly emitter = new EventEmitter();
  private readonly notifier: Notifier;
  /** Events from other nodes are delivered one after the other, references resolved in turn. */
  private remote: Promise<void> = Promise.resolve();

  constructor(private readonly options: ScanEventsOptions = {}) {
    this.emitter.setMaxListeners(100);
    this.notifier = options.notifier ?? inProcessNotifier();
    this.notifier.subscribe('scan_events', (payload, origin) => {
      if (origin === 'local') this.emitter.emit('event', payload as ScanEvent);
      else this.fromRemote(payload);
    });
  }

  /** Delivers the event to this node's subscribers now and to the other nodes' in order. */
  emit(event: ScanEvent): void {
    this.notifier.publish('scan_events', event, { tooLarge: toReference });
  }

  /** Every scan event, of a scan on any node; returns the unsubscribe function. */
  subscribe(listener: (event: ScanEvent) => void): () => void {
    const safe = (e: ScanEvent) => {
      try {
        listener(e);
      } catch {
        // A listener's failure must not stop the scan.
      }
    };
    this.emitter.on('event', safe);
    return () => this.emitter.off('event', safe);
  }

  private fromRemote(payload: unknown): void {
    const parsed = parseRemoteScanEvent(payload);
    if (!parsed) return;
    this.remote = this.remote
      .then(async () => {
        const event = 'ref' in parsed ? await this.resolve(parsed) : parsed;
        if (event) this.emitter.emit('event', event);
      })
      .catch(() => undefined);
  }

  private async resolve(ref: ScanEventReference): Promise<ScanEvent | null> {
    const { ref: _ref, ...rest } = ref;
    if (rest.type === 'scan:progress') return { ...rest, current: null };
    const failureReason = (await this.options.failureReasonOf?.(rest.scanId)) ?? null;
    return { ...rest, failureReason };
  }
}

function toReference(event: ScanEvent): ScanEventReference {
  if (event.type === 'scan:progress') {
    const { current: _current, ...rest } = event;
    return { ...rest, ref: true };
  }
  const { failureReason: _reason, ...rest } = event;
  return { ...rest, ref: true };
}

const FINISHED_STATUSES: readonly string[] = ['completed', 'failed', 'cancelled'];

/** A pace from another node, field by field; null when it is not one. */
function parsePace(value: unknown): ScanPace | null {
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Record<string, unknown>;
  const count = (k: string) => typeof p[k] === 'number' && Number.isFinite(p[k]) && (p[k] as number) >= 0;
  if (!count('limit') || !count('max') || !count('rps') || typeof p.alone !== 'boolean') return null;
  return { limit: p.limit as number, max: p.max as number, rps: p.rps as number, alone: p.alone };
}

/** An event (or a reference) from another node, checked field by field; null when it is not one. */
export function parseRemoteScanEvent(value: unknown): ScanEvent | ScanEventReference | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const text = (k: string) => typeof v[k] === 'string';
  const count = (k: string) => typeof v[k] === 'number' && Number.isFinite(v[k]);
  if (!text('scanId') || !text('apiId') || !text('userId') || !count('findings')) return null;
  const ids = { scanId: v.scanId as string, apiId: v.apiId as string, userId: v.userId as string, findings: v.findings as number };
  const ref = v.ref === true;
  if (v.type === 'scan:progress') {
    if (!count('done') || !count('total') || !count('requestsSent')) return null;
    const base = { type: 'scan:progress' as const, ...ids, done: v.done as number, total: v.total as number, requestsSent: v.requestsSent as number };
    if (ref) return { ...base, ref: true };
    const c = v.current as Record<string, unknown> | null | undefined;
    const current = c && typeof c === 'object' && typeof c.check === 'string' && (typeof c.endpoint === 'string' || c.endpoint === null) ? { check: c.check, endpoint: c.endpoint } : null;
    // An event without a pace (a node of an older version) stays without one.
    return { ...base, current, ...(v.pace === undefined ? {} : { pace: parsePace(v.pace) }) };
  }
  if (v.type === 'scan:finished') {
    if (typeof v.status !== 'string' || !FINISHED_STATUSES.includes(v.status)) return null;
    if (!(v.score === null || count('score'))) return null;
    const base = { type: 'scan:finished' as const, ...ids, status: v.status as ScanFinishedEvent['status'], score: v.score as number | null };
    if (ref) return { ...base, ref: true };
    if (!(v.failureReason === null || text('failureReason'))) return null;
    return { ...base, failureReason: v.failureReason as string | null };
  }
  return null;
}
