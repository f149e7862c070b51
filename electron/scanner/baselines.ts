// Baselines: for each endpoint, the request as key 1, the same request as key 2 (and as the
// privileged and lower-privileged identities, when the scan has them), and the same without
// credentials — recorded once, on first use, and shared by every check. Requests that create
// (POST) or delete get a fresh object or body per mode, so one mode cannot spoil another.

import type { Endpoint } from '../../shared/contract';
import type { Budget, HttpEngine } from './http/engine';
import type { Exchange, KeyNumber, RequestAuth } from './http/exchange';
import { pathParamNames, toProbe, type PreparedRequest } from './requests';
import type { BlockCode, ResourcePool } from './resources';

export type BaselineMode = 'key1' | 'key2' | 'privileged' | 'lower' | 'anonymous';
export const BASELINE_MODES: readonly BaselineMode[] = ['key1', 'key2', 'privileged', 'lower', 'anonymous'];

export const MODE_AUTH: Record<BaselineMode, RequestAuth> = {
  key1: { kind: 'key', key: 1 },
  key2: { kind: 'key', key: 2 },
  privileged: { kind: 'key', key: 3 },
  lower: { kind: 'key', key: 4 },
  anonymous: { kind: 'none' },
};

export const MODE_LABEL: Record<BaselineMode, string> = { key1: 'key 1', key2: 'key 2', privileged: 'key 3', lower: 'key 4', anonymous: 'no credentials' };

/** The baseline mode of a slot. */
export function modeOf(key: KeyNumber): BaselineMode {
  return key === 1 ? 'key1' : key === 2 ? 'key2' : key === 3 ? 'privileged' : 'lower';
}

export interface BaselineDeps {
  engine: HttpEngine;
  resources: ResourcePool;
  budgetsFor(endpoint: Endpoint): Budget[];
  /** Does the scan have an identity in this slot? */
  hasKey(key: KeyNumber): boolean;
}

export interface BaselineRecord {
  mode: BaselineMode;
  request: PreparedRequest;
  exchange: Exchange;
}

export class Baselines {
  private readonly shared = new Map<string, Promise<PreparedRequest | null>>();
  private readonly records = new Map<string, Promise<BaselineRecord | null>>();
  private readonly blocked = new Map<string, { reason: string; code: BlockCode }>();

  constructor(private readonly deps: BaselineDeps) {}

  /** Whether each mode needs its own request (creates and deletes) or they share one. */
  private perMode(endpoint: Endpoint): boolean {
    return endpoint.method === 'DELETE' || (endpoint.method === 'POST' && pathParamNames(endpoint.path).length === 0);
  }

  private async prepareAsKey1(endpoint: Endpoint): Promise<PreparedRequest | null> {
    const r = await this.deps.resources.prepare(endpoint, 1);
    if ('blocked' in r) {
      this.blocked.set(endpoint.id, { reason: r.blocked, code: r.code });
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
    return this.blocked.get(endpoint.id)?.reason ?? null;
  }

  /** The block with its coverage reason, when the endpoint has no baseline for one. */
  block(endpoint: Endpoint): { reason: string; code: BlockCode } | null {
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

  /** The exchange of this mode if it was sent (never sends). */
  async recorded(endpoint: Endpoint, mode: BaselineMode): Promise<Exchange | null> {
    const p = this.records.get(`${endpoint.id}:${mode}`);
    return p ? ((await p)?.exchange ?? null) : null;
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
    const auth = MODE_AUTH[mode];
    if (auth.kind === 'key' && auth.key !== 1 && !this.deps.hasKey(auth.key)) return null;
    const request = this.perMode(endpoint) ? await this.prepareAsKey1(endpoint) : await this.request(endpoint);
    if (!request) return null;
    const exchange = await this.deps.engine.send(toProbe(request, auth), this.deps.budgetsFor(endpoint));
    return { mode, request, exchange };
  }
}
