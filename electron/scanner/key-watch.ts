// Watches key 1 during the scan: when a request as key 1 gets 401, the canary request (one that
// worked for key 1 earlier) is re-sent; if it now gets 401 too, key 1 has stopped working
// (expired, revoked, logged out by a check) and the scan stops with that reason instead of
// reporting noise.

import type { HttpEngine } from './http/engine';
import type { Exchange } from './http/exchange';
import type { Canary } from './identity';

const MIN_INTERVAL_MS = 1000;

export class KeyWatch {
  private checking: Promise<void> | null = null;
  private lastCheck = 0;
  /** A key-1 401 arrived that no verification has covered yet. */
  private unverified = false;
  private readonly own = new WeakSet<Exchange>();

  constructor(
    private readonly engine: HttpEngine,
    private canary: Canary | null,
    private readonly fail: (reason: string) => void,
  ) {}

  /** Called for every exchange the engine completes. */
  observe(ex: Exchange): void {
    const auth = ex.request.auth;
    if (auth.kind !== 'key' || auth.key !== 1) return;
    if (!this.canary) {
      // Without a canary from the health check, the first successful key-1 GET becomes it.
      if (ex.ok && ex.request.method === 'GET') {
        this.canary = {
          label: `GET ${new URL(ex.request.url).pathname}`,
          probe: { method: 'GET', url: ex.request.url, headers: ex.request.headers, auth, placements: ex.request.placements },
          status: ex.status,
        };
      }
      return;
    }
    if (ex.status !== 401 || this.own.has(ex)) return;
    this.unverified = true;
    if (this.checking) return;
    const now = performance.now();
    if (now - this.lastCheck < MIN_INTERVAL_MS) return;
    this.start();
  }

  private start(): Promise<void> {
    this.lastCheck = performance.now();
    this.unverified = false;
    this.checking = this.verify().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  /**
   * Before the scan's outcome is decided: waits for a verification in flight, and runs one for any
   * 401 that arrived since the last (so a failure late in the scan is not missed).
   */
  async settle(): Promise<void> {
    if (this.checking) await this.checking;
    if (this.unverified && this.canary) await this.start();
  }

  private async verify(): Promise<void> {
    const canary = this.canary!;
    if (this.engine.budget.left <= 0 || this.engine.signal.aborted) return;
    let ex: Exchange;
    try {
      ex = await this.engine.send(canary.probe);
    } catch {
      return;
    }
    this.own.add(ex);
    if (ex.status === 401) {
      this.fail(
        `Key 1 stopped working during the scan: ${canary.label} answered 401 where it answered ${canary.status} earlier. ` +
          'The key may have expired or been revoked. Findings recorded before this point are kept.',
      );
    }
  }
}
