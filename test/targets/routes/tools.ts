// Back-office tools: the first lines of a download, read by running `head` without a shell
// (argument-injection: the file name goes to the program as it is, so one starting with "-" is taken
// as an option), and ad-hoc reports whose request carries the SQL statement itself (sql-statement: any
// read-only statement runs, over every table). Hardened: "--" ends the options before the file name,
// and only the saved reports' statements run.

import { execFile } from 'node:child_process';
import type { Ctx, TargetState } from '../context';
import { HttpError, json, type Router, ValidationError } from '../http';
import { SCHEMAS } from '../schemas';
import { DOWNLOADS } from './content';

/** The saved reports: the statements the reporting screen sends. */
export const SAVED_REPORTS = ['SELECT name, price_cents FROM products ORDER BY price_cents DESC LIMIT 5', 'SELECT status, COUNT(*) AS orders FROM orders GROUP BY status'];

function head(dir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('head', args, { cwd: dir, timeout: 5_000, maxBuffer: 64 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

export function registerTools(r: Router<Ctx>, t: TargetState): void {
  r.get('/api/v2/downloads/preview', async (ctx) => {
    await ctx.user();
    const file = ctx.query.get('file') ?? '';
    const lines = Number(ctx.query.get('lines') ?? '3');
    if (!file || file.length > 100 || /[/\\]|\.\./.test(file)) throw new ValidationError([{ field: 'file', message: 'must be the name of a download' }]);
    if (!Number.isInteger(lines) || lines < 1 || lines > 20) throw new ValidationError([{ field: 'lines', message: 'must be an integer from 1 to 20' }]);
    const args = t.has('argument-injection') ? ['-n', String(lines), file] : ['-n', String(lines), '--', file];
    if (!t.has('argument-injection') && !Object.hasOwn(DOWNLOADS, file)) throw new HttpError(404, 'not_found', 'File not found.');
    const out = await head(t.downloadsDir, args);
    if (out.code !== 0) return json(422, { error: 'preview_failed', message: out.stderr.trim().slice(0, 500) || 'The preview could not be made.' });
    return json(200, { file, preview: out.stdout.slice(0, 2000) });
  });

  r.post('/api/v2/reports/run', async (ctx) => {
    await ctx.user();
    const { sql } = ctx.input<{ sql: string }>(SCHEMAS.ReportRun);
    if (!t.has('sql-statement') && !SAVED_REPORTS.includes(sql.trim())) throw new HttpError(403, 'forbidden', 'Only saved reports can be run.');
    let rows: unknown[];
    try {
      const stmt = t.db.prepare(sql);
      if (!stmt.readonly || !stmt.reader) throw new Error('not a read');
      rows = stmt.all();
    } catch {
      return json(400, { error: 'invalid_report', message: 'The report could not be run.' });
    }
    return json(200, { rows: rows.slice(0, 100) });
  });
}
