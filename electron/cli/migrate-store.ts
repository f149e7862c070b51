// `portcullis migrate-store`: moves a one-node team server's data from its SQLite file into an empty
// PostgreSQL database (issue 19), with the data dir locked so no server writes meanwhile.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveConfig } from '../config';
import { lockDataDir } from '../data-dir-lock';
import { KEY_FILE } from '../secrets/encrypted';
import { CopyVerificationError, copySqliteToPostgres, type CopyResult, type TableCount } from '../store/copy-to-postgres';
import { isPostgresUrl, openStore, redactPassword, serverOf, type OpenedStore } from '../store/database';
import { UsageError, type CliCommand } from './types';

const HELP = `Usage: portcullis migrate-store --from <data-dir> --to <database-url>

Copies a one-node team server's data (portcullis.db in its data dir) into an empty PostgreSQL database,
for a team server of several nodes. Stop the server first: the data dir is locked while copying.
  --from       the data dir of the server (holds portcullis.db); the database is brought up to this
               version's migrations first
  --to         postgres://user:password@host:5432/database (default PORTCULLIS_DATABASE_URL; the variable, or
               PGPASSWORD with a URL without password, keeps the password out of the process list). Create the
               database with CREATE DATABASE … TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C';
               it gets the schema here and must hold no data

Every table is copied in one transaction with ids and values as they are, then its rows are counted on
both sides: on any error or difference nothing is written. The role in the URL must own the tables (the
role that creates them here does). Stored scan keys stay encrypted with the server's secret key: give
every node that key (PORTCULLIS_SECRET_KEY or --secret-key-file).

Exit codes: 0 copied and verified, 1 the counts differ (nothing written), 2 refused or failed.`;

/** One line, without the URL's password. */
function oneLine(text: string, url: string): string {
  return redactPassword(text, url).replace(/\s*\n\s*/g, ' ').trim();
}

function summaryLines(tables: TableCount[]): string[] {
  const width = Math.max(0, ...tables.map((t) => t.table.length));
  return ['Row counts (SQLite → PostgreSQL):'].concat(tables.map((t) => `  ${t.table.padEnd(width)} ${t.source} → ${t.target}${t.source === t.target ? '' : '  DIFFERS'}`));
}

/** A progress line per table, and one per batch of a big table at most every 10% of it. */
function progressPrinter(out: (line: string) => void): (table: string, copied: number, total: number) => void {
  let shown = -1;
  return (table, copied, total) => {
    if (copied === 0) {
      shown = 0;
      if (total > 0) out(`  ${table}: ${total} ${total === 1 ? 'row' : 'rows'}`);
      return;
    }
    if (copied === total || copied - shown < Math.max(1, Math.ceil(total / 10))) return;
    shown = copied;
    out(`  ${table}: ${copied}/${total}`);
  };
}

async function openTarget(url: string): Promise<OpenedStore> {
  try {
    return await openStore(url);
  } catch (err) {
    throw new Error(oneLine((err as Error).message, url));
  }
}

export const migrateStoreCommand: CliCommand = {
  summary: "copy a team server's SQLite data into PostgreSQL",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    const out = (line: string): void => void process.stdout.write(`${line}\n`);
    if (!values.from?.trim()) throw new UsageError('--from <data-dir> is required: the data dir of the server to copy.');
    const url = (values.to ?? process.env.PORTCULLIS_DATABASE_URL ?? '').trim();
    if (!url) throw new UsageError('--to <database-url> is required (or set PORTCULLIS_DATABASE_URL).');
    // The URL is never echoed: it may hold the password.
    if (!isPostgresUrl(url) || !URL.canParse(url)) throw new UsageError('--to must be a postgres:// URL (postgres://user:password@host:5432/database).');
    const dataDir = path.resolve(values.from);
    const { dbFile } = resolveConfig({ shell: 'cli', dataDir });
    // openStore would create a missing file: a typo must not copy an empty database.
    if (!fs.existsSync(dbFile)) throw new UsageError(`No Portcullis data in ${dataDir} (${path.basename(dbFile)} not found).`);
    const where = `${serverOf(url)}${new URL(url).pathname}`;

    // Held until the copy ends: a server on this data dir refuses to start, one running refuses this.
    const lock = lockDataDir(dataDir, 'migrate-store');
    let source: OpenedStore | null = null;
    let target: OpenedStore | null = null;
    try {
      // The target first: an unreachable one leaves the SQLite file as it was, not yet migrated.
      target = await openTarget(url);
      source = await openStore(dbFile);
      out(`Copying ${dbFile} into PostgreSQL at ${where}`);
      let result: CopyResult;
      try {
        result = await copySqliteToPostgres(source, target, progressPrinter(out));
      } catch (err) {
        if (!(err instanceof CopyVerificationError)) throw new Error(oneLine((err as Error).message, url));
        for (const line of summaryLines(err.result.tables)) out(line);
        process.stderr.write(`Error: ${oneLine(err.message, url)}\n`);
        return 1;
      }
      for (const line of summaryLines(result.tables)) out(line);
      out(`Copied ${result.rows} rows into PostgreSQL; counts verified.`);
      if (fs.existsSync(path.join(dataDir, KEY_FILE))) {
        out(
          `Stored scan keys are encrypted with ${path.join(dataDir, KEY_FILE)}: give every node that key ` +
            '(PORTCULLIS_SECRET_KEY, or --secret-key-file with a copy outside the data dir).',
        );
      }
      return 0;
    } finally {
      await target?.close();
      await source?.close();
      lock.release();
    }
  },
};
