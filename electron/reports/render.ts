// One entry point for every report type: renderReport(input, type) gives the bytes, the content
// type and the file name. Pure: the same input and options give the same output.

import { reportFileName } from '../../shared/display';
import type { ReportType } from '../../shared/constants';
import { toHtml } from './export/html';
import { toJson } from './export/json';
import { toJunit } from './export/junit';
import { toSarif } from './export/sarif';
import { DEFAULT_RENDER_OPTIONS, type RenderOptions } from './format';
import { reportInstant, type ReportInput } from './model';

/** The PDF writer pulls in pdfkit and fonts: loaded on the first PDF, not at start-up. */
const loadPdf = () => import('./pdf/pdf-entry');

export interface RenderedReport {
  body: Buffer;
  contentType: string;
  filename: string;
}

export const CONTENT_TYPES: Record<ReportType, string> = {
  executive: 'application/pdf',
  technical: 'application/pdf',
  json: 'application/json; charset=utf-8',
  sarif: 'application/sarif+json; charset=utf-8',
  html: 'text/html; charset=utf-8',
  junit: 'application/xml; charset=utf-8',
};

export async function renderReport(input: ReportInput, type: ReportType, options: Partial<RenderOptions> = {}): Promise<RenderedReport> {
  const opts: RenderOptions = { ...DEFAULT_RENDER_OPTIONS, ...options };
  let body: Buffer;
  switch (type) {
    case 'executive': {
      const pdf = await loadPdf();
      body = await pdf.renderPdf(pdf.executiveSpec, input, opts);
      break;
    }
    case 'technical': {
      const pdf = await loadPdf();
      body = await pdf.renderPdf(pdf.technicalSpec, input, opts);
      break;
    }
    case 'json':
      body = Buffer.from(toJson(input), 'utf8');
      break;
    case 'sarif':
      body = Buffer.from(toSarif(input), 'utf8');
      break;
    case 'html':
      body = Buffer.from(toHtml(input, opts), 'utf8');
      break;
    case 'junit':
      body = Buffer.from(toJunit(input), 'utf8');
      break;
  }
  return { body, contentType: CONTENT_TYPES[type], filename: reportFileName(input.api.name, type, reportInstant(input.scan), opts.timeZone) };
}
