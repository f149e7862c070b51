// `portcullis report`: writes one report (PDF or export) of a completed scan from a data dir.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPORT_TYPES, type ReportType } from '../../shared/constants';
import { defaultTimeZone } from '../../shared/display';
import { defaultDataDir, resolveConfig } from '../config';
import { loadReportInput, renderReport, resolveTimeZone, writeFileAtomic } from '../reports/index';
import { openStore } from '../store/database';
import { UsageError, type CliCommand } from './types';

const HELP = `Usage: portcullis report --scan <id> --type <type> [--out <file>] [--data-dir <dir>] [--tz <zone>]

Writes one report of a completed scan.
  --scan       the scan id
  --type       ${REPORT_TYPES.join(', ')}
  --out        the file to write (default: the report's own name in the current directory; "-" for stdout)
  --data-dir   where the database lives (default ${defaultDataDir()})
  --tz         time zone of the dates in the report and its name (default: this machine's)

Exit codes: 0 written, 2 bad arguments, unknown scan, or a scan that has not completed.`;

const isType = (v: string): v is ReportType => (REPORT_TYPES as readonly string[]).includes(v);

export const reportCommand: CliCommand = {
  summary: 'write a PDF report or an export (JSON, SARIF, HTML, JUnit) of a scan',
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        scan: { type: 'string' },
        type: { type: 'string' },
        out: { type: 'string', short: 'o' },
        'data-dir': { type: 'string' },
        tz: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    const scanId = values.scan?.trim();
    if (!scanId) throw new UsageError('--scan <id> is required.');
    const type = values.type?.trim().toLowerCase() ?? '';
    if (!isType(type)) throw new UsageError(`--type must be one of ${REPORT_TYPES.join(', ')}${values.type ? `, got "${values.type}"` : ''}.`);
    const dataDir = path.resolve(values['data-dir'] ?? defaultDataDir());
    const { dbFile } = resolveConfig({ shell: 'cli', dataDir });
    // Opening a missing file would create an empty database: a typo must not do that.
    if (!fs.existsSync(dbFile)) throw new UsageError(`No Portcullis data in ${dataDir} (${path.basename(dbFile)} not found).`);
    const store = await openStore(dbFile);
    try {
      const input = await loadReportInput(store.db, scanId);
      if (!input) throw new UsageError(`Scan "${scanId}" not found in ${dataDir}.`);
      if (input.scan.status !== 'completed') throw new UsageError(`Scan "${scanId}" is ${input.scan.status}: reports need a completed scan.`);
      const timeZone = resolveTimeZone(values.tz, defaultTimeZone());
      if (values.tz && timeZone !== values.tz) throw new UsageError(`Unknown time zone "${values.tz}".`);
      const report = await renderReport(input, type, { timeZone });
      if (values.out === '-') {
        await new Promise<void>((resolve, reject) => process.stdout.write(report.body, (err) => (err ? reject(err) : resolve())));
        return 0;
      }
      const out = path.resolve(values.out ?? report.filename);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      writeFileAtomic(out, report.body);
      process.stdout.write(`Wrote ${out} (${report.body.length.toLocaleString('en-US')} bytes)\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};
