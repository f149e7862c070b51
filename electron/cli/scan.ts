// `portcullis scan`: import a spec, scan the API on an embedded SQLite (a data dir, or a temp dir
// removed afterwards), write findings.json, draw progress on stderr, and exit 0 (nothing at or above
// --fail-on), 1 (findings at or above it) or 2 (error).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SCAN_SEED_MAX } from '../../shared/constants';
import type { Finding, ScanDetails } from '../../shared/contract';
import { coverageHeadline, reachedPercent, type CoverageSummary, type ScanCoverage } from '../../shared/coverage';
import { identitiesFromKeys, type ScanConfig } from '../../shared/identities';
import { splitNotes } from '../../shared/scan-notes';
import { isSetAside, levelCounts, levelsAtOrAbove, SEVERITY_LEVELS, severityLevel, vulnerabilityCount, type SeverityLevel } from '../../shared/severity';
import type { DestructiveOperation, WritePolicyData } from '../../shared/write-policy';
import { createCore, type Core } from '../core';
import { ImportError } from '../importer/index';
import { importRunner } from '../importer/import-runner';
import { asksForBaseUrl } from '../importer/warnings';
import { parseReportFormats, writeReports } from '../reports/index';
import { createLogger } from '../log';
import type { ScanEvent } from '../scanner/events';
import { securityScore } from '../scanner/findings';
import { readBaseline, type Baseline } from './baseline';
import { maskProxyUrl, TRAFFIC_LIMITS } from '../../shared/scan-traffic';
import { proxyFromOptions, ProxyError, type ScanProxy } from '../scanner/http/proxy';
import { readConfigFile } from './config-file';
import { UsageError, type CliCommand } from './types';

const HELP = `Usage: portcullis scan --spec <file> --base-url <url> (--config <scan.yaml> | --key1 <key>) [options]

Imports an OpenAPI/Swagger/Postman file and scans the API against the OWASP API Security Top 10.
  --spec         the API description (.json, .yaml, .yml)
  --base-url     where the API runs (default: the spec's server URL)
  --config       the scan's identities: login recipes, OAuth2, cookie sessions, commands, static
                 tokens, roles, and whether the scan registers its own users (docs/scan-config.md);
                 \${env:NAME} in it reads a secret from the environment
  --key1         shortcut: the primary user's static key (or PORTCULLIS_KEY_1; keeps it out of the
                 process list)
  --key2         shortcut: a second user's key, for cross-user checks (or PORTCULLIS_KEY_2)
  --signup       auto | off: let the scan register its own test users (default: the config's
                 setting, else auto for local targets)
  --writes       created | existing: write to and delete only objects the scan created (default),
                 or existing ones too (a disposable instance); operations that may wipe data or
                 overwrite files are sent only when named under \`destructive:\` in --config
  --rps          requests per second, 0 = no cap (default 20)
  --concurrency  requests in flight (default 8)
  --timeout-ms   per-request timeout, headers and body together (default 15000)
  --max-duration the whole scan's time limit in seconds (default 3600): past it the scan stops,
                 failed with the reason, and keeps what it found
  --proxy        send every request through this HTTP proxy (Burp, ZAP, an egress proxy):
                 http://host:port or http://user:password@host:port (or PORTCULLIS_PROXY; its
                 password is never printed)
  --proxy-ca     a PEM file with the CA of a TLS-intercepting proxy, trusted besides the system's
                 (or PORTCULLIS_PROXY_CA)
  --har          write the scan's traffic to this file as HAR 1.2 (the last ${TRAFFIC_LIMITS.maxEntries} requests,
                 secrets redacted like evidence); written for failed scans too
  --out          directory for findings.json (default: the current directory)
  --min-coverage fail the run (exit 2) when fewer than this percentage of the operations answered a
                 2xx to some identity (0-100; default none)
  --fail-on      critical | high | medium | low (default high): exit 1 when a finding is at or
                 above it (critical: CVSS 9.0 or more; high: 7.0 or more)
  --baseline     a triage export from the app, or a previous findings.json: findings marked a false
                 positive or an accepted risk are set aside, and findings the previous run reported
                 do not fail the run (only findings nobody has looked at do)
  --format       reports to write next to findings.json: pdf (both), executive, technical, json,
                 sarif, html, junit; comma-separated (default: none)
  --seed         the seed of the scan's probe values and choices (0-4294967295; default: the config's
                 \`seed:\`, else a new one, shown at the end): the same seed sends the same values
  --data-dir     keep the database here (default: a temp dir, removed afterwards)
  --verbose      also list the identities the scan used and the users it registered
  --quiet        no progress bar

Results (the summary, one line per finding at or above --fail-on, coverage) go to stdout; progress,
warnings and the identities to stderr.
Exit codes: 0 no finding at or above --fail-on; 1 findings at or above it; 2 error. Findings set aside
in triage, and with --baseline those already known, never fail a run.`;

const CLI_USER = { email: 'cli@portcullis.local', username: 'portcullis-cli', firstName: 'Portcullis', lastName: 'CLI' };

function positiveInt(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}".`);
  return n;
}

/** What `--fail-on` takes: any level but info. */
export type FailOn = Exclude<SeverityLevel, 'info'>;
export const FAIL_ON_LEVELS: readonly FailOn[] = ['critical', 'high', 'medium', 'low'];

/** Levels at or above the threshold (`high`: critical and high). */
export function atOrAbove(threshold: FailOn): SeverityLevel[] {
  return levelsAtOrAbove(threshold);
}

/** A finding set aside in triage (a false positive, an accepted risk, closed as fixed): listed, never failed on. */
export const setAside = (f: Pick<Finding, 'triage'>): boolean => isSetAside(f);

/** The findings that fail the run: at or above --fail-on, not set aside, not already in the baseline. */
export function failGate(findings: Finding[], failOn: FailOn, baseline: Baseline | null) {
  const levels = atOrAbove(failOn);
  const atLevel = findings.filter((f) => levels.includes(severityLevel(f)));
  const open = atLevel.filter((f) => !setAside(f));
  const failing = open.filter((f) => !baseline?.known.has(f.fingerprint));
  return { failing, setAside: atLevel.length - open.length, known: open.length - failing.length };
}

/** The baseline's marks on the scan's fresh API, before the scan runs; expired accepted risks are dropped. */
async function applyBaseline(s: Core['services'], apiId: string, userId: string, baseline: Baseline): Promise<void> {
  const now = s.clock.now();
  for (const m of baseline.marks) {
    if (m.expires_at && !(new Date(m.expires_at).getTime() > now.getTime())) continue;
    await s.repos.triage.set({ apiId, fingerprint: m.fingerprint, state: m.state, reason: m.reason, expiresAt: m.expires_at, userId }, now, securityScore);
  }
}

function progressBar(stream: NodeJS.WriteStream, quiet: boolean) {
  let lastLine = '';
  let lastPercent = -10;
  return {
    update(e: ScanEvent) {
      if (quiet || e.type !== 'scan:progress') return;
      const pct = e.total ? Math.floor((100 * e.done) / e.total) : 0;
      const width = 24;
      const filled = Math.round((width * pct) / 100);
      const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(pct).padStart(3)}%  ${e.done}/${e.total} checks  ${e.requestsSent} requests  ${e.findings} findings`;
      if (stream.isTTY) {
        if (line !== lastLine) stream.write(`\r${line}`);
      } else if (pct >= lastPercent + 10) {
        stream.write(`${line}\n`);
        lastPercent = pct;
      }
      lastLine = line;
    },
    end() {
      if (!quiet && stream.isTTY && lastLine) stream.write('\n');
    },
  };
}

export function findingsReport(details: ScanDetails, api: { name: string; base_url: string }, coverage: ScanCoverage | null = null) {
  const info = details.results.scan_info;
  return {
    tool: 'Portcullis',
    api,
    scan: {
      id: details.scan_id,
      status: details.status,
      started_at: info.started_at,
      completed_at: info.completed_at,
      score: info.score,
      requests_sent: info.requests_sent,
      failure_reason: info.failure_reason,
      seed: info.seed ?? null,
      skipped_checks: info.skipped_checks,
      errors: info.errors,
      // The notes among `errors` that are problems, as the scan page and the reports split them.
      problems: splitNotes(info.errors, info.problems).problems,
      identities: info.identities,
      created_users: info.created_users,
      refreshes: info.refreshes,
    },
    // Counts leave out findings set aside in triage, as the score does; `findings` lists every one with its triage.
    // Per level, critical apart from high; `vulnerabilities` is the one count every screen and report shows.
    summary: {
      ...levelCounts(details.results.results.filter((f) => !setAside(f))),
      set_aside: details.results.results.filter(setAside).length,
      vulnerabilities: vulnerabilityCount(details.results.results),
    },
    findings: details.results.results,
    // What the scan reached and exercised: per operation and identity, per check (docs/report-formats.md).
    coverage,
  };
}

/**
 * "3 vulnerabilities (1 critical, 2 high, 0 medium, 0 low), 2 informational, 1 set aside in triage": the
 * one count first (shared/severity.ts), as the app's screens and the reports give it for the same scan.
 */
export function doneSummary(findings: Finding[]): string {
  const open = findings.filter((f) => !setAside(f));
  const levels = levelCounts(open);
  const n = vulnerabilityCount(findings);
  const aside = findings.length - open.length;
  const byLevel = SEVERITY_LEVELS.filter((l) => l !== 'info')
    .map((l) => `${levels[l]} ${l}`)
    .join(', ');
  return `${n} ${n === 1 ? 'vulnerability' : 'vulnerabilities'} (${byLevel}), ${levels.info} informational${aside ? `, ${aside} set aside in triage` : ''}`;
}

/** The seed line: what a user passes to send the same probe values again. */
export function seedLine(seed: number): string {
  return `Seed: ${seed} (--seed ${seed} sends the same probe values and makes the same choices again).`;
}

/** The coverage lines after the summary: the header line, then the commonest reasons with their fix. */
export function coverageLines(summary: CoverageSummary): string[] {
  const lines = [`Coverage: ${coverageHeadline(summary)}.`];
  for (const r of summary.reasons.slice(0, 3)) lines.push(`  ${r.count} × ${r.label}: ${r.fix}.`);
  return lines;
}

/** Results: stdout, so a pipeline can keep them apart from the progress on stderr. */
function result(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * The findings at or above --fail-on, one line each (severity, check, method, path), then what they
 * mean for the run: the lines a CI log shows to say why it failed.
 */
export function gateLines(findings: Finding[], failOn: FailOn, baseline: Baseline | null): string[] {
  const gate = failGate(findings, failOn, baseline);
  const failing = new Set(gate.failing);
  const levels = atOrAbove(failOn);
  const lines = findings
    .filter((f) => levels.includes(severityLevel(f)))
    .map((f) => {
      const why = failing.has(f) ? '' : setAside(f) ? ' (set aside in triage)' : ' (already in the baseline)';
      return `  ${severityLevel(f).padEnd(8)} ${f.check_id}  ${f.method} ${f.path}${why}`;
    });
  const n = gate.failing.length;
  lines.push(n ? `${n} finding${n === 1 ? '' : 's'} at or above ${failOn} failed this run.` : `No new finding at or above ${failOn}: this run passes.`);
  if (gate.setAside || gate.known) lines.push(`Not failed on: ${gate.setAside} set aside in triage, ${gate.known} already in the baseline.`);
  return lines;
}

/** The scan's identities: from --config (secrets from the environment), else the --key1/--key2 shortcut. */
function readScanConfig(file: string | undefined, key1Flag: string | undefined, key2Flag: string | undefined): ScanConfig {
  if (file) {
    if (key1Flag !== undefined || key2Flag !== undefined) throw new UsageError('Give --config or --key1/--key2, not both.');
    return readConfigFile(file);
  }
  const key1 = (key1Flag ?? process.env.PORTCULLIS_KEY_1 ?? '').trim();
  if (!key1) throw new UsageError('--config or --key1 is required (or set PORTCULLIS_KEY_1).');
  const key2 = (key2Flag ?? process.env.PORTCULLIS_KEY_2 ?? '').trim() || null;
  return { identities: identitiesFromKeys(key1, key2) };
}

/** --har: the scan's stored traffic to a file (0600: it shows the API's answers); a scan that kept none says so. */
async function writeHar(s: Core['services'], scanId: string, file: string): Promise<void> {
  const stored = await s.repos.scanTraffic.find(scanId);
  if (!stored) {
    process.stderr.write(`No traffic was kept for this scan (it sent no request): ${file} not written.\n`);
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, stored.har, { mode: 0o600 });
  process.stderr.write(`wrote ${file} (${stored.entries} requests${stored.dropped ? `; the ${stored.dropped} oldest were dropped` : ''})\n`);
}

const MAX_LISTED_USERS = 12;

/** The identity table the scan result carries, as terminal lines. */
export function identityTable(info: ScanDetails['results']['scan_info']): string[] {
  if (!info.identities.length) return [];
  const lines = ['Identities:'];
  for (const i of info.identities) {
    const who = i.verified_as ? `verified as ${i.verified_as}` : 'not verified';
    lines.push(`  ${i.name} (${i.role}${i.created ? ', created by the scan' : ''}): ${i.obtained}; ${who}; ${i.refreshes} refresh${i.refreshes === 1 ? '' : 'es'}, ${i.failures} failed login${i.failures === 1 ? '' : 's'}`);
  }
  // The checks' own sign-up requests may register dozens: findings.json lists them all.
  for (const u of info.created_users.slice(0, MAX_LISTED_USERS)) lines.push(`  registered ${u.username ?? u.email} with ${u.operation} (${u.purpose})`);
  const more = info.created_users.length - MAX_LISTED_USERS;
  if (more > 0) lines.push(`  and ${more} more user${more === 1 ? '' : 's'} registered by the scan (all listed in findings.json)`);
  return lines;
}

export const scanCommand: CliCommand = {
  summary: 'import a spec and scan the API (CI pipelines)',
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        spec: { type: 'string' },
        'base-url': { type: 'string' },
        config: { type: 'string' },
        key1: { type: 'string' },
        key2: { type: 'string' },
        signup: { type: 'string' },
        writes: { type: 'string' },
        rps: { type: 'string' },
        concurrency: { type: 'string' },
        'timeout-ms': { type: 'string' },
        'max-duration': { type: 'string' },
        'min-coverage': { type: 'string' },
        out: { type: 'string' },
        proxy: { type: 'string' },
        'proxy-ca': { type: 'string' },
        har: { type: 'string' },
        'fail-on': { type: 'string', default: 'high' },
        baseline: { type: 'string' },
        'data-dir': { type: 'string' },
        seed: { type: 'string' },
        format: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    if (!values.spec) throw new UsageError('--spec is required (the API description file).');
    const scanConfig = readScanConfig(values.config, values.key1, values.key2);
    if (values.signup !== undefined) {
      if (values.signup !== 'auto' && values.signup !== 'off') throw new UsageError(`--signup must be auto or off, got "${values.signup}".`);
      scanConfig.signup = values.signup;
    }
    if (values.writes !== undefined) {
      if (values.writes !== 'created' && values.writes !== 'existing') throw new UsageError(`--writes must be created or existing, got "${values.writes}".`);
      scanConfig.writes = values.writes;
    }
    const failOn = values['fail-on'] as FailOn;
    if (!FAIL_ON_LEVELS.includes(failOn)) throw new UsageError(`--fail-on must be critical, high, medium or low, got "${values['fail-on']}".`);
    const baseline = values.baseline ? readBaseline(values.baseline) : null;
    const rps = positiveInt('rps', values.rps, 0, 10_000);
    const concurrency = positiveInt('concurrency', values.concurrency, 1, 256);
    const timeoutMs = positiveInt('timeout-ms', values['timeout-ms'], 100, 600_000);
    const maxDurationS = positiveInt('max-duration', values['max-duration'], 10, 7 * 24 * 3600);
    const minCoverage = positiveInt('min-coverage', values['min-coverage'], 0, 100);
    const seed = positiveInt('seed', values.seed, 0, SCAN_SEED_MAX) ?? scanConfig.seed;
    const outDir = path.resolve(values.out ?? '.');
    const harFile = values.har !== undefined ? path.resolve(values.har) : null;
    if (values.har !== undefined && !values.har.trim()) throw new UsageError('--har needs a file name.');
    let proxy: ScanProxy | null | undefined;
    try {
      // The flags replace the environment's proxy; without them the core reads PORTCULLIS_PROXY itself.
      proxy =
        values.proxy !== undefined || values['proxy-ca'] !== undefined
          ? proxyFromOptions({
              url: values.proxy ?? process.env.PORTCULLIS_PROXY,
              caFile: values['proxy-ca'] ?? process.env.PORTCULLIS_PROXY_CA,
              source: values.proxy !== undefined ? '--proxy' : 'PORTCULLIS_PROXY',
              caSource: values['proxy-ca'] !== undefined ? '--proxy-ca' : 'PORTCULLIS_PROXY_CA',
            })
          : undefined;
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    let formats: string[] = [];
    if (values.format) {
      try {
        formats = [...parseReportFormats(values.format)];
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    }
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(values.spec);
    } catch (err) {
      throw new UsageError(`Cannot read ${values.spec}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    let imported;
    try {
      // In the import worker, as the server reads it: the same memory and time limits, the same refusals.
      imported = await importRunner().importDocument(new Uint8Array(bytes), { filename: path.basename(values.spec) });
    } catch (err) {
      if (err instanceof ImportError) throw new UsageError(`Cannot import ${values.spec}: ${err.message}`);
      throw err;
    }
    const baseUrl = (values['base-url'] ?? imported.base_url).trim();
    if (!/^https?:\/\//i.test(baseUrl)) {
      throw new UsageError(`The spec gives no absolute base URL${baseUrl ? ` ("${baseUrl}")` : ''}: pass --base-url.`);
    }

    const tempDir = values['data-dir'] ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-scan-'));
    const dataDir = path.resolve(values['data-dir'] ?? tempDir!);
    const logger = createLogger({ level: 'warn' });
    let core: Core | null = null;
    const bar = progressBar(process.stderr, values.quiet);
    let stopping: (() => void) | null = null;
    const onSignal = () => stopping?.();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      try {
        core = await createCore({ shell: 'cli', dataDir, logger, ...(proxy !== undefined ? { scan: { proxy } } : {}) });
      } catch (err) {
        if (err instanceof ProxyError) throw new UsageError(err.message);
        throw err;
      }
      if (!values.quiet && core.config.scan.proxy) process.stderr.write(`Through the proxy ${maskProxyUrl(core.config.scan.proxy.url)}\n`);
      const s = core.services;
      const now = s.clock.now();
      const user = (await s.repos.users.findByUsername(CLI_USER.username)) ?? (await s.repos.users.create({ ...CLI_USER, passwordHash: null }, now));
      const apiId = await s.repos.apis.createWithEndpoints(
        {
          ownerId: user.id,
          name: imported.name,
          baseUrl,
          sourceFormat: imported.format,
          sourceFilename: path.basename(values.spec),
          specVersion: imported.spec_version,
          security: imported.security,
          endpoints: imported.endpoints,
        },
        now,
        s.config.quotas,
      );
      if (baseline) await applyBaseline(s, apiId, user.id, baseline);
      // A warning that asks for the base URL does not apply when --base-url gave it.
      const warnings = values['base-url'] !== undefined ? imported.warnings.filter((w) => !asksForBaseUrl(w)) : imported.warnings;
      for (const w of warnings.slice(0, 20)) process.stderr.write(`warning: ${w.location}: ${w.message}\n`);
      if (!values.quiet) process.stderr.write(`Scanning ${imported.name} at ${baseUrl}: ${imported.endpoints.length} endpoints\n`);
      if (!values.quiet && scanConfig.writes === 'existing') process.stderr.write(destructiveNotice(await s.scans.writePolicy(apiId), scanConfig.destructive ?? []));
      const scanId = await s.scans.create(user.id, {
        apiId,
        profile: 'owasp',
        identities: scanConfig.identities,
        ...(scanConfig.signup !== undefined ? { signup: scanConfig.signup } : {}),
        allowExistingObjects: scanConfig.writes === 'existing',
        ...(scanConfig.destructive?.length ? { namedOperations: scanConfig.destructive } : {}),
        rps,
        concurrency,
        timeoutMs,
        ...(maxDurationS !== undefined ? { maxDurationMs: maxDurationS * 1000 } : {}),
        ...(seed !== undefined ? { seed } : {}),
      });
      const off = s.scanEvents.subscribe((e) => {
        if (e.scanId === scanId) bar.update(e);
      });
      stopping = () => void s.scans.cancel(scanId).catch(() => undefined);
      await s.scans.start(user.id, { apiId });
      await s.scans.wait(scanId);
      off();
      bar.end();
      // Findings the baseline knew are recurring, as a rescan in the app would have them (SARIF: unchanged).
      if (baseline?.known.size) await s.repos.findings.markRecurring(scanId, [...baseline.known]);
      // The CLI takes its keys on each run: none is kept after it.
      const row = await s.repos.scans.findById(scanId);
      if (row?.secret_ref) {
        await s.secrets.delete(row.secret_ref);
        await s.repos.scans.clearSecretRef(scanId);
      }
      const details = await s.scans.details(scanId);
      fs.mkdirSync(outDir, { recursive: true });
      const file = path.join(outDir, 'findings.json');
      const coverage = await s.scans.coverage(scanId);
      fs.writeFileSync(file, `${JSON.stringify(findingsReport(details, { name: imported.name, base_url: baseUrl }, coverage), null, 2)}\n`, { mode: 0o600 });
      const info = details.results.scan_info;
      if (typeof info.seed === 'number') result(seedLine(info.seed));
      if (harFile) await writeHar(s, scanId, harFile);
      if (details.status !== 'completed') {
        process.stderr.write(`Scan ${details.status}: ${info.failure_reason ?? 'no reason given'}\nPartial results: ${file}\n`);
        for (const p of splitNotes(info.errors, info.problems).problems) result(`problem: ${p}`);
        if (coverage) for (const line of coverageLines(coverage.summary)) result(line);
        return 2;
      }
      const reports = formats.length ? await writeReports(s.db, scanId, formats, outDir, { comparedWithBaseline: baseline !== null }) : [];
      for (const w of reports) result(`wrote ${w.path}`);
      if (values.verbose) for (const line of identityTable(info)) process.stderr.write(`${line}\n`);
      result(`Done: ${doneSummary(details.results.results)}, score ${info.score}/100, ${info.requests_sent} requests. ${file}`);
      // Problems first: parts of the scan that did not run as asked, which a clean result may hide.
      for (const p of splitNotes(info.errors, info.problems).problems) result(`problem: ${p}`);
      for (const sk of info.skipped_checks) result(`skipped: ${sk.title}: ${sk.reason}`);
      if (coverage) for (const line of coverageLines(coverage.summary)) result(line);
      if (minCoverage !== undefined && coverage && reachedPercent(coverage.summary) < minCoverage) {
        const { reached, operations } = coverage.summary;
        result(
          `Coverage below --min-coverage ${minCoverage}%: ${reached} of ${operations} operations (${Math.floor(reachedPercent(coverage.summary))}%) answered a 2xx to some identity. ` +
            `${coverage.summary.reasons[0] ? `The commonest reason: ${coverage.summary.reasons[0].label} (${coverage.summary.reasons[0].fix}).` : 'Check the base URL and the identities.'}`,
        );
        return 2;
      }
      for (const line of gateLines(details.results.results, failOn, baseline)) result(line);
      return failGate(details.results.results, failOn, baseline).failing.length ? 1 : 0;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await core?.close();
      if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
    }
  },
};

/** Before a scan that may write to existing objects: the operations that look destructive, and which of them the configuration allows. */
export function destructiveNotice(policy: WritePolicyData, allowed: readonly string[]): string {
  const named = (o: DestructiveOperation) => allowed.some((a) => a.trim().replace(/^(\S+)\s+/, (_, m: string) => `${m.toUpperCase()} `) === o.operation);
  if (!policy.operations.length) return 'Writes: existing objects too. No operation looks destructive.\n';
  const lines = policy.operations.map((o) => `  ${o.operation}: ${named(o) ? 'ALLOWED, called once after every other check' : 'skipped'} (${o.reason})\n`);
  return `Writes: existing objects too. Operations that look destructive are skipped unless named under destructive: in --config:\n${lines.join('')}`;
}
