import { describe, expect, it } from 'vitest';
import { TimingGate } from './timing-gate';

/** A task that records when it runs and ends when told to. */
function task(log: string[], name: string) {
  let end!: () => void;
  const done = new Promise<void>((r) => (end = r));
  return {
    end,
    fn: async () => {
      log.push(`${name}+`);
      await done;
      log.push(`${name}-`);
      return name;
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('TimingGate', () => {
  it('runs screening probes side by side', async () => {
    const gate = new TimingGate();
    const log: string[] = [];
    const a = task(log, 'a');
    const b = task(log, 'b');
    const pa = gate.run(false, a.fn);
    const pb = gate.run(false, b.fn);
    await tick();
    expect(log).toEqual(['a+', 'b+']);
    expect(gate.state.shared).toBe(2);
    a.end();
    b.end();
    expect(await Promise.all([pa, pb])).toEqual(['a', 'b']);
    expect(gate.state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });

  it('starts a confirmation only when the screenings in flight have ended, and holds back screenings that come after it', async () => {
    const gate = new TimingGate();
    const log: string[] = [];
    const s1 = task(log, 's1');
    const c = task(log, 'c');
    const s2 = task(log, 's2');
    const p1 = gate.run(false, s1.fn);
    const pc = gate.run(true, c.fn);
    const p2 = gate.run(false, s2.fn);
    await tick();
    expect(log).toEqual(['s1+']);
    s1.end();
    await p1;
    await tick();
    expect(log).toEqual(['s1+', 's1-', 'c+']);
    expect(gate.state).toMatchObject({ shared: 0, exclusive: true, waiting: 1 });
    c.end();
    await pc;
    await tick();
    expect(log).toEqual(['s1+', 's1-', 'c+', 'c-', 's2+']);
    s2.end();
    await p2;
  });

  it('runs confirmations one at a time and releases the gate when one throws', async () => {
    const gate = new TimingGate();
    const log: string[] = [];
    const failing = gate.run(true, async () => {
      log.push('x');
      throw new Error('boom');
    });
    const c = task(log, 'c');
    const pc = gate.run(true, c.fn);
    await expect(failing).rejects.toThrow('boom');
    await tick();
    expect(log).toEqual(['x', 'c+']);
    c.end();
    await pc;
    expect(gate.state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });
});
