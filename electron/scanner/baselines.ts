// Baselines: for each endpoint, the request as key 1, the same request as key 2, and the same
// without credentials — recorded once, on first use, and shared by every check. Requests that
// create (POST) or delete get a fresh object or body per mode, so one mode cannot spoil another.

import type { Endpoint } from '../../shared/contract';
import type { Budget, HttpEngine } from './http/engine';
import type { Exchange, RequestAuth } from './http/exchange';
import { pathParamNames, toProbe, type PreparedRequest } from './requests';
import type { ResourcePool } from './resources';

export type BaselineMode = 'key1' | 'key2' | 'anonymous';
export const BASELINE_MODES: readonly BaselineMode[] = ['key1', 'key2', 'anonymous'];

export const MODE_AUTH: Record<BaselineMode, RequestAuth> = {
  key1: { kind: 'key', key: 1 },
  key2: { kind: 'key', key: 2 },
  anonymous: { kind: 'none' },
};

export const MODE_LABEL: Record<BaselineMode, string> = { key1: 'key 1', key2: 'key 2', anonymous: 'no credentials' };

export interface BaselineDeps {
  engine: HttpEngine;
  resources: ResourcePool;
  budgetsFor(endpoint: Endpoint): Budget[];
  hasKey2: boolean;
}

export interface BaselineRecord {
  mode: BaselineMode;
  request: PreparedRequest;
  exchange: Exchange;
}

export class Baselines {
  private readonly shared = new Map<string, Promise<PreparedRequest | null>>();
  private readonly records = new Map<string, Promise<BaselineRecord | null>>();
  private readonly blocked = new Map<string, string>();

  constructor(private readonly deps: BaselineDeps) {}

  /** Whether each mode needs its own request (creates and deletes) or they share one. */
  private perMode(endpoint: Endpoint): boolean {
    return endpoint.method === 'DELETE' || (endpoint.method === 'POST' && pathParamNames(endpoint.path).length === 0);
  }

  private async prepareAsKey1(endpoint: Endpoint): Promise<PreparedRequest | null> {
    const r = await this.deps.resources.prepare(endpoint, 1);
    if ('blocked' in r) {
      this.blocked.set(endpoint.id, r.blocked);
      return null;
    }
    return r.request;
  }

  /** The request the baselines of this mode use (key 1's object ids in every mode). */
  request(endpoint: Endpoint, mode: BaselineMode = 'key1'): Promise<PreparedRequest | null> {
    if (this.perMode(endpoint)) return this.record(endpoint, mode).then((r) => r?.request ?? null);
    let p = this.shared.get(endpoint.id);
    if (!p) {
      p = this.prepareAsKey1(endpoint);
      this.shared.set(endpoint.id, p);
    }
    return p;
  }

  /** Why the endpoint has no baseline (an unsafe request with no object the scan created), if so. */
  blockedReason(endpoint: Endpoint): string | null {
    return this.blocked.get(endpoint.id) ?? null;
  }

  /** The exchange of this mode, sent on first use; null when the mode is unavailable or blocked. */
  async get(endpoint: Endpoint, mode: BaselineMode): Promise<Exchange | null> {
    return (await this.record(endpoint, mode))?.exchange ?? null;
  }

  /** Already recorded (without sending anything)? */
  has(endpoint: Endpoint, mode: BaselineMode): boolean {
    return this.records.has(`${endpoint.id}:${mode}`);
  }

  record(endpoint: Endpoint, mode: BaselineMode): Promise<BaselineRecord | null> {
    const k = `${endpoint.id}:${mode}`;
    let p = this.records.get(k);
    if (!p) {
      p = this.send(endpoint, mode);
      this.records.set(k, p);
    }
    return p;
  }

  private async send(endpoint: Endpoint, mode: BaselineMode): Promise<BaselineRecord | null> {
    if (mode === 'key2' && !this.deps.hasKey2) return null;
    const request = this.perMode(endpoint) ? await this.prepareAsKey1(endpoint) : await this.request(endpoint);
    if (!request) return null;
    const exchange = await this.deps.engine.send(toProbe(request, MODE_AUTH[mode]), this.deps.budgetsFor(endpoint));
    return { mode, request, exchange };
  }
}
