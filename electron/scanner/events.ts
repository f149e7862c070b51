// Scan events for whoever shows progress: the desktop shell forwards them to the renderer on the
// `api:event` channel; the CLI draws its progress bar from them.

import { EventEmitter } from 'node:events';
import type { ScanStatus } from '../../shared/constants';
import type { ScanCurrent } from '../../shared/contract';

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

export class ScanEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  emit(event: ScanEvent): void {
    this.emitter.emit('event', event);
  }

  /** Every scan event; returns the unsubscribe function. */
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
}
