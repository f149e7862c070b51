// The sign-in throttle shared by server nodes (issue 19): two FailureThrottle instances — two nodes —
// on one database hold one limit between them, on SQLite and on PostgreSQL. On PostgreSQL each node has
// its own store and connection pool, as two `serve` processes do; SQLite has one connection per
// process (a data dir is one node's), so there the two instances share it.

import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, postgresSkipReason, stopSharedCluster } from '../../test/helpers/postgres';
import { manualClock, type Clock } from '../clock';
import { openStore, type Db, type OpenedStore } from '../store/database';
import { createThrottleRepo } from '../store/throttle';
import { FailureThrottle, type ThrottleRule } from './throttle';

afterAll(stopSharedCluster);

/** Opens the stores of `count` nodes on one fresh database; the first one's `db` is for looking at rows. */
type Nodes = (count: number) => Promise<OpenedStore[]>;

const TARGETS: { name: string; skip: string | null; nodes: Nodes }[] = [
  {
    name: 'SQLite',
    skip: null,
    nodes: async (count) => {
      const store = await openStore(':memory:');
      return Array.from({ length: count }, (_, i) => (i === 0 ? store : { ...store, close: async () => undefined }));
    },
  },
  {
    name: 'PostgreSQL',
    skip: postgresSkipReason(),
    nodes: async (count) => {
      const url = await freshDatabase('throttle');
      const stores: OpenedStore[] = [];
      for (let i = 0; i < count; i++) stores.push(await openStore(url));
      return stores;
    },
  },
];

const WINDOW_MS = 60_000;
const RULES: Record<string, ThrottleRule> = {
  account: { maxFailures: 3, windowMs: WINDOW_MS },
  client: { maxFailures: 5, windowMs: WINDOW_MS },
  code: { maxFailures: 3, windowMs: 10 * WINDOW_MS },
};

const throttleOn = (store: OpenedStore, clock: Clock) => new FailureThrottle(clock, RULES, createThrottleRepo(store.db));

async function rowsOf(db: Db): Promise<string[]> {
  return (await db.selectFrom('throttle_failures').select('key').orderBy('key').execute()).map((r) => r.key);
}

describe.each(TARGETS)('the sign-in throttle on $name', ({ skip, nodes }) => {
  describe.skipIf(skip !== null)(skip ?? 'shared by two nodes', () => {
    it('holds the limit across the nodes, with the retry time of the oldest failure', async () => {
      const stores = await nodes(2);
      const clock = manualClock(new Date('2026-01-01T00:00:00Z'));
      const [a, b] = stores.map((s) => throttleOn(s, clock)) as [FailureThrottle, FailureThrottle];
      const ada = [{ kind: 'account', value: 'ada' }];
      try {
        expect((await a.reserve(ada)).blocked).toBe(false);
        clock.advance(10_000);
        expect((await b.reserve(ada)).blocked).toBe(false);
        expect(await a.check(ada)).toEqual({ blocked: false, retryAfterSeconds: 0 });
        expect((await a.reserve(ada)).blocked).toBe(false);
        // Three failures, two on node a and one on node b: both nodes refuse the fourth.
        for (const node of [a, b]) {
          expect(await node.check(ada)).toEqual({ blocked: true, retryAfterSeconds: 50 });
          const refused = await node.reserve(ada);
          expect([refused.blocked, refused.retryAfterSeconds]).toEqual([true, 50]);
        }
        expect((await b.check([{ kind: 'account', value: 'bob' }])).blocked).toBe(false);
        clock.advance(50_000);
        expect((await b.reserve(ada)).blocked).toBe(false);
      } finally {
        for (const s of stores) await s.close();
      }
    });

    it('lets at most the limit of parallel attempts through, spread over both nodes', async () => {
      const stores = await nodes(2);
      const clock = manualClock(new Date('2026-01-01T00:00:00Z'));
      const [a, b] = stores.map((s) => throttleOn(s, clock)) as [FailureThrottle, FailureThrottle];
      try {
        // One client guessing 16 accounts at once (the client's limit is 5), as a sign-in reserves them.
        const attempts = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            (i % 2 ? a : b).reserve([
              { kind: 'account', value: `user-${i}` },
              { kind: 'client', value: '203.0.113.9' },
            ]),
          ),
        );
        expect(attempts.filter((t) => !t.blocked)).toHaveLength(5);
        // One account guessed at once from 12 clients (its limit is 3).
        const guesses = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            (i % 2 ? b : a).reserve([
              { kind: 'account', value: 'target' },
              { kind: 'client', value: `198.51.100.${i}` },
            ]),
          ),
        );
        expect(guesses.filter((t) => !t.blocked)).toHaveLength(3);
        expect((await rowsOf(stores[0]!.db)).filter((k) => k === 'client:203.0.113.9' || k === 'account:target')).toHaveLength(8);
      } finally {
        for (const s of stores) await s.close();
      }
    });

    it('keeps a lockout for a node that starts later, and a success takes back only its own attempt', async () => {
      const stores = await nodes(3);
      const clock = manualClock(new Date('2026-01-01T00:00:00Z'));
      const [a, b] = stores.map((s) => throttleOn(s, clock)) as [FailureThrottle, FailureThrottle];
      const code = [{ kind: 'code', value: 'u1' }];
      try {
        // Two attempts in the same millisecond, one per node; the one that succeeds is taken back.
        const [first, second] = await Promise.all([a.reserve(code), b.reserve(code)]);
        await first!.release();
        await first!.release();
        expect(await rowsOf(stores[0]!.db)).toEqual(['code:u1']);
        await second!.release();
        expect(await rowsOf(stores[0]!.db)).toEqual([]);
        for (let i = 0; i < 3; i++) expect((await (i % 2 ? a : b).reserve(code)).blocked).toBe(false);
        // A node started now (or one restarted) sees the lockout at once.
        const later = throttleOn(stores[2]!, clock);
        expect(await later.check(code)).toEqual({ blocked: true, retryAfterSeconds: 600 });
        await later.reset('code', 'u1');
        expect((await a.check(code)).blocked).toBe(false);
      } finally {
        for (const s of stores) await s.close();
      }
    });

    it('deletes the attempts that left their window, kind by kind', async () => {
      const [store] = await nodes(1);
      const clock = manualClock(new Date('2026-01-01T00:00:00Z'));
      const t = throttleOn(store!, clock);
      try {
        await t.fail([
          { kind: 'account', value: 'ada' },
          { kind: 'code', value: 'ada' },
          { kind: 'other', value: 'ada' }, // no rule: not counted
        ]);
        expect(await rowsOf(store!.db)).toEqual(['account:ada', 'code:ada']);
        clock.advance(WINDOW_MS);
        // The account failure has left its one-minute window; the code failure's window is ten minutes.
        expect((await t.check([{ kind: 'account', value: 'ada' }])).blocked).toBe(false);
        expect(await rowsOf(store!.db)).toEqual(['code:ada']);
      } finally {
        await store!.close();
      }
    });
  });
});
