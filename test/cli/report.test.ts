// `portcullis report` as a CI pipeline runs it, and writeReports() as the scan command calls it:
// files written for a completed scan, clear errors and exit code 2 for bad input.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_OUTPUT_FILES, ReportError, writeReports } from '../../electron/reports/index';
import { openStore, type OpenedStore } from '../../electron/store/database';
import { tempDir } from '../helpers/core';
import { ensureCliBuilt, ROOT } from '../helpers/serve-process';
import { seedReportFixture, type Fixture } from '../helpers/report-fixture';

let dataDir: string;
let out: string;
let fx: Fixture;

function cli(...args: string[]) {
  const res = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'portcullis.js'), 'report', ...args], { cwd: out, encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

beforeAll(async () => {
  ensureCliBuilt();
  dataDir = tempDir('portcullis-cli-data-');
  out = tempDir('portcullis-cli-out-');
  const store = await openStore(path.join(dataDir, 'portcullis.db'));
  fx = await seedReportFixture(store.db, { findings: 12 });
  await store.close();
}, 180_000);

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
});

describe('portcullis report', () => {
  it('writes the requested report to --out', () => {
    const file = path.join(out, 'nested', 'technical.pdf');
    const res = cli('--data-dir', dataDir, '--scan', fx.scanId, '--type', 'technical', '--out', file);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`Wrote ${file}`);
    expect(fs.readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const sarif = path.join(out, 'r.sarif');
    expect(cli('--data-dir', dataDir, '--scan', fx.scanId, '--type', 'sarif', '-o', sarif).code).toBe(0);
    expect((JSON.parse(fs.readFileSync(sarif, 'utf8')) as { runs: { results: unknown[] }[] }).runs[0]!.results).toHaveLength(12);
  });

  it('names the file like the download when --out is not given, in the zone asked for', () => {
    const res = cli('--data-dir', dataDir, '--scan', fx.scanId, '--type', 'executive', '--tz', 'UTC+02:00');
    expect(res.code).toBe(0);
    expect(fs.existsSync(path.join(out, '2026-03-02_1141 - Executive Report - Ünïcödé_Ωμέγα_Payments_API_—_支付.pdf'))).toBe(true);
  });

  it('writes to stdout with --out -', () => {
    const res = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'portcullis.js'), 'report', '--data-dir', dataDir, '--scan', fx.scanId, '--type', 'junit', '--out', '-'], { encoding: 'utf8' });
    expect(res.status).toBe(0);
    expect(res.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });

  it('exits 2 with a clear message for a bad type, scan, zone or data dir', () => {
    const badType = cli('--data-dir', dataDir, '--scan', fx.scanId, '--type', 'docx');
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain('--type must be one of executive, technical, json, sarif, html, junit, got "docx".');
    const noType = cli('--data-dir', dataDir, '--scan', fx.scanId);
    expect(noType.code).toBe(2);
    expect(noType.stderr).toContain('--type must be one of');
    const badScan = cli('--data-dir', dataDir, '--scan', 'no-such-scan', '--type', 'json');
    expect(badScan.code).toBe(2);
    expect(badScan.stderr).toContain('Scan "no-such-scan" not found in');
    const running = cli('--data-dir', dataDir, '--scan', fx.runningScanId, '--type', 'json');
    expect(running.code).toBe(2);
    expect(running.stderr).toContain('is running: reports need a completed scan.');
    const zone = cli('--data-dir', dataDir, '--scan', fx.scanId, '--type', 'json', '--tz', 'Mars/Olympus');
    expect(zone.code).toBe(2);
    expect(zone.stderr).toContain('Unknown time zone "Mars/Olympus".');
    const empty = tempDir('portcullis-cli-empty-');
    const noData = cli('--data-dir', empty, '--scan', fx.scanId, '--type', 'json');
    expect(noData.code).toBe(2);
    expect(noData.stderr).toContain('No Portcullis data in');
    expect(fs.readdirSync(empty)).toEqual([]);
    fs.rmSync(empty, { recursive: true, force: true });
    expect(cli('--data-dir', dataDir, '--type', 'json').stderr).toContain('--scan <id> is required.');
  });
});

describe('writeReports (for `portcullis scan --format`)', () => {
  let store: OpenedStore;
  beforeAll(async () => {
    store = await openStore(path.join(dataDir, 'portcullis.db'));
  });
  afterAll(async () => {
    await store.close();
  });

  it('writes each format under its fixed name', async () => {
    const dir = path.join(out, 'ci');
    const written = await writeReports(store.db, fx.scanId, 'pdf,sarif,junit,json,html', dir, { timeZone: 'UTC' });
    expect(written.map((w) => w.type)).toEqual(['executive', 'technical', 'sarif', 'junit', 'json', 'html']);
    for (const w of written) {
      expect(w.path).toBe(path.join(dir, REPORT_OUTPUT_FILES[w.type]));
      expect(fs.statSync(w.path).size).toBe(w.bytes);
    }
    expect(fs.readdirSync(dir).sort()).toEqual(['executive-report.pdf', 'junit.xml', 'report.html', 'report.json', 'results.sarif', 'technical-report.pdf']);
  });

  it('refuses bad formats, unknown and unfinished scans', async () => {
    await expect(writeReports(store.db, fx.scanId, 'pdf,docx', out)).rejects.toThrow('Unknown report format "docx"');
    await expect(writeReports(store.db, 'nope', 'json', out)).rejects.toMatchObject({ code: 'not_found' });
    await expect(writeReports(store.db, fx.failedScanId, 'json', out)).rejects.toBeInstanceOf(ReportError);
    await expect(writeReports(store.db, fx.failedScanId, 'json', out)).rejects.toMatchObject({ code: 'not_completed' });
  });
});
