// Sliding-window counters for the hardened twin's rate limits and throttles.

export interface WindowState {
  count: number;
  /** Seconds until the oldest counted event leaves the window. */
  resetSeconds: number;
}

export class WindowLimiter {
  private readonly events = new Map<string, number[]>();

  private live(key: string, windowMs: number, now: number): number[] {
    const list = (this.events.get(key) ?? []).filter((t) => t > now - windowMs);
    this.events.set(key, list);
    return list;
  }

  state(key: string, windowMs: number, now = Date.now()): WindowState {
    const list = this.live(key, windowMs, now);
    const oldest = list[0];
    return { count: list.length, resetSeconds: oldest === undefined ? Math.ceil(windowMs / 1000) : Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
  }

  record(key: string, now = Date.now()): void {
    const list = this.events.get(key) ?? [];
    list.push(now);
    this.events.set(key, list);
  }

  clear(key: string): void {
    this.events.delete(key);
  }
}
