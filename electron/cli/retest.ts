// `portcullis retest <finding-id>`: runs one finding's check on its operation again (issue 29), from the
// data dir of the scan that found it (`portcullis scan --data-dir`, or the desktop app's), with the
// identities of --config (the CLI keeps no keys after a scan) or, without it, the keys the data dir
// still holds. Prints the outcome on stdout; exits 0 not reproduced, 1 still present, 2 error.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { FindingRetest } from '../../shared/contract';
import { RETEST_MESSAGES } from '../../shared/messages';
import { defaultDataDir, resolveConfig } from '../config';
import { createCore, type Core } from '../core';
import { createLogger } from '../log';
import { ScanError } from '../scanner/service';
import { readConfigFile } from './config-file';
import { UsageError, type CliCommand } from './types';

const HELP = `Usage: portcullis retest <finding-id> [--config <scan.yaml>] [--data-dir <dir>]

Runs the check of one finding again on its operation, with the settings of the scan that found it,
and says whether the finding is still present.
  <finding-id>  the finding's id (the "id" of a finding in findings.json, or the scan page's)
  --config      the identities to re-test with, as for portcullis scan (docs/scan-config.md);
                \${env:NAME} reads a secret from the environment. Without it, the keys the data
                dir still holds for the API are used (portcullis scan keeps none)
  --data-dir    where the scan's database lives (default ${defaultDataDir()}; for portcullis scan,
                the --data-dir it was given)

Results go to stdout: the outcome, then the new evidence (still present) or the requests sent
(not reproduced).
Exit codes: 0 not reproduced; 1 still present; 2 the re-test could not run, or an error.`;

/** The outcome as terminal lines: the headline, then the evidence or what was sent. */
export function retestLines(r: FindingRetest, finding: { vulnerability_name: string; method: string; path: string; check_id: string }): string[] {
  const where = `${finding.vulnerability_name} (${finding.check_id}) on ${finding.method} ${finding.path}`;
  const took = `${(r.duration_ms / 1000).toFixed(1)} s, ${r.requests_sent} request${r.requests_sent === 1 ? '' : 's'}`;
  if (r.outcome === 'reproduced') return [`Still present: ${where}; re-tested ${r.at} (${took}).`, '', r.evidence ?? '', ...(r.curl ? ['', r.curl] : [])];
  if (r.outcome === 'not_reproduced') return [`Not reproduced: ${where}; re-tested ${r.at} (${took}).`, ...(r.sent.length ? ['Sent:', ...r.sent.map((l) => `  ${l}`)] : [])];
  return [r.reason ?? RETEST_MESSAGES.failed('no reason given.')];
}

export const retestCommand: CliCommand = {
  summary: 'run the check of one finding again and say whether it is still present',
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        config: { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    if (positionals.length !== 1 || !positionals[0]!.trim()) throw new UsageError('Give one finding id: portcullis retest <finding-id> --config <scan.yaml>.');
    const findingId = positionals[0]!.trim();
    const identities = values.config ? readConfigFile(values.config) : undefined;
    const dataDir = path.resolve(values['data-dir'] ?? defaultDataDir());
    const { dbFile } = resolveConfig({ shell: 'cli', dataDir });
    // Opening a missing file would create an empty database: a typo must not do that.
    if (!fs.existsSync(dbFile)) throw new UsageError(`No Portcullis data in ${dataDir} (${path.basename(dbFile)} not found).`);
    let core: Core | null = null;
    try {
      core = await createCore({ shell: 'cli', dataDir, logger: createLogger({ level: 'warn' }) });
      const s = core.services;
      const finding = await s.repos.findings.findById(findingId);
      if (!finding) throw new UsageError(`Finding "${findingId}" not found in ${dataDir}.`);
      // The data dir is this user's own: the re-test runs as the user whose scan found the finding.
      const scan = await s.repos.scans.findById(finding.scan_id);
      if (!scan) throw new UsageError(`Finding "${findingId}" not found in ${dataDir}.`);
      let retest: FindingRetest;
      try {
        retest = await s.scans.retest(scan.user_id, findingId, identities ? { identities: identities.identities, ...(identities.signup !== undefined ? { signup: identities.signup } : {}) } : undefined);
      } catch (err) {
        if (err instanceof ScanError) throw new UsageError(err.message);
        throw err;
      }
      process.stdout.write(`${retestLines(retest, finding).join('\n')}\n`);
      return retest.outcome === 'not_reproduced' ? 0 : retest.outcome === 'reproduced' ? 1 : 2;
    } finally {
      await core?.close();
    }
  },
};
