// Reports: executive and technical PDFs, and JSON, SARIF, HTML and JUnit exports of one scan.
// loadReportInput() reads the store once; renderReport() turns the input into any format;
// writeReports() does both for the CLI (`portcullis report`, and `portcullis scan --format`).

import fs from 'node:fs';
import path from 'node:path';
import { REPORT_TYPES, type ReportType } from '../../shared/constants';
import { defaultTimeZone } from '../../shared/display';
import type { Db } from '../store/database';
import { resolveTimeZone } from './format';
import { loadReportInput } from './loader';
import { renderReport } from './render';

export { findScanRef, loadReportInput } from './loader';
export { renderReport, CONTENT_TYPES, type RenderedReport } from './render';
export { resolveTimeZone, type RenderOptions } from './format';
export type { ReportInput } from './model';

/** What `--format` accepts: every report type, and "pdf" for both PDFs. */
export const REPORT_FORMATS = ['pdf', ...REPORT_TYPES] as const;

/** Fixed file names for CI (written next to findings.json by the scan command). */
export const REPORT_OUTPUT_FILES: Record<ReportType, string> = {
  executive: 'executive-report.pdf',
  technical: 'technical-report.pdf',
  json: 'report.json',
  sarif: 'results.sarif',
  html: 'report.html',
  junit: 'junit.xml',
};

export class ReportError extends Error {
  constructor(
    readonly code: 'bad_format' | 'not_found' | 'not_completed',
    message: string,
  ) {
    super(message);
    this.name = 'ReportError';
  }
}

/** "pdf,sarif" -> ["executive", "technical", "sarif"]; a ReportError naming the bad value otherwise. */
export function parseReportFormats(list: string | readonly string[]): ReportType[] {
  const items = (typeof list === 'string' ? list.split(',') : list).map((x) => x.trim().toLowerCase()).filter(Boolean);
  if (!items.length) throw new ReportError('bad_format', `No report format given. Use one or more of: ${REPORT_FORMATS.join(', ')}.`);
  const out: ReportType[] = [];
  for (const item of items) {
    if (item === 'pdf') out.push('executive', 'technical');
    else if ((REPORT_TYPES as readonly string[]).includes(item)) out.push(item as ReportType);
    else throw new ReportError('bad_format', `Unknown report format "${item}". Use one or more of: ${REPORT_FORMATS.join(', ')}.`);
  }
  return [...new Set(out)];
}

/** RFC 6266 attachment header: an ASCII `filename` for old clients and the exact UTF-8 `filename*`. */
export function contentDisposition(filename: string): string {
  const ascii = filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export interface WrittenReport {
  type: ReportType;
  path: string;
  bytes: number;
}

/**
 * Renders the scan's reports in the given formats into `outDir` (created if missing), with the
 * fixed names of REPORT_OUTPUT_FILES. Refuses scans that do not exist or have not completed.
 */
export async function writeReports(
  db: Db,
  scanId: string,
  formats: string | readonly string[],
  outDir: string,
  options: { timeZone?: string; comparedWithBaseline?: boolean } = {},
): Promise<WrittenReport[]> {
  const types = parseReportFormats(formats);
  const loaded = await loadReportInput(db, scanId);
  if (!loaded) throw new ReportError('not_found', `Scan "${scanId}" not found.`);
  const input = options.comparedWithBaseline ? { ...loaded, compared: true } : loaded;
  if (input.scan.status !== 'completed') throw new ReportError('not_completed', `Scan "${scanId}" is ${input.scan.status}: reports need a completed scan.`);
  fs.mkdirSync(outDir, { recursive: true });
  const timeZone = resolveTimeZone(options.timeZone, defaultTimeZone());
  const written: WrittenReport[] = [];
  for (const type of types) {
    const report = await renderReport(input, type, { timeZone });
    const file = path.join(outDir, REPORT_OUTPUT_FILES[type]);
    writeFileAtomic(file, report.body);
    written.push({ type, path: file, bytes: report.body.length });
  }
  return written;
}

/**
 * Write to a temporary file then rename, so a reader never sees half a report. 0600: a report spells
 * out the API's weaknesses with evidence; the owner shares it on purpose, not by default.
 */
export function writeFileAtomic(file: string, body: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, body, { mode: 0o600 });
  fs.renameSync(tmp, file);
}
