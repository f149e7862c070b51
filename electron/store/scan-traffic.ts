// The traffic of finished scans (migration 016): one gzip-compressed HAR per scan, written when it ends.

import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Har } from 'har-format';
import type { Db } from './database';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

export interface StoredTraffic {
  entries: number;
  dropped: number;
  /** The HAR as JSON text. */
  har: string;
}

export function createScanTrafficRepo(db: Db) {
  return {
    /** Keeps a scan's HAR (replacing one it had). */
    async save(scanId: string, log: { har: Har; entries: number; dropped: number }, now: Date): Promise<void> {
      const text = JSON.stringify(log.har);
      const row = { entries: log.entries, dropped: log.dropped, bytes: Buffer.byteLength(text), har_gzip: await gzip(text), created_at: now.toISOString() };
      await db
        .insertInto('scan_traffic')
        .values({ scan_id: scanId, ...row })
        .onConflict((oc) => oc.column('scan_id').doUpdateSet(row))
        .execute();
    },

    /** The scan's HAR, or null when none was kept. */
    async find(scanId: string): Promise<StoredTraffic | null> {
      const row = await db.selectFrom('scan_traffic').select(['entries', 'dropped', 'har_gzip']).where('scan_id', '=', scanId).executeTakeFirst();
      if (!row) return null;
      return { entries: row.entries, dropped: row.dropped, har: (await gunzip(Buffer.from(row.har_gzip))).toString('utf8') };
    },
  };
}

export type ScanTrafficRepo = ReturnType<typeof createScanTrafficRepo>;
