// Report downloads: GET /api/reports/download?scan_id&report_type&user_id. The scan id from the
// client is never trusted alone: scan -> API -> the caller's access to that API. A stranger gets the
// same 404 for a scan they cannot see as for one that does not exist.

import type { Hono } from 'hono';
import { z } from 'zod';
import { REPORT_TYPES, type ReportType } from '../../../shared/constants';
import { defaultTimeZone } from '../../../shared/display';
import { contentDisposition, findScanRef, loadReportInput, renderReport, resolveTimeZone } from '../../reports/index';
import type { Services } from '../../services';
import { requireApiAccess } from '../access';
import type { AppEnv } from '../env';
import { ApiError, badRequest, notFound } from '../errors';
import { idField, parseQuery } from '../input';

export const REPORT_MESSAGES = {
  scanNotFound: 'Scan not found.',
  unknownType: `Unknown report type. Use one of: ${REPORT_TYPES.join(', ')}.`,
  notCompleted: (status: string) => `This scan is ${status}: reports are available once it has completed.`,
} as const;

const query = z.object({
  scan_id: idField('scan_id'),
  report_type: z.string({ error: 'report_type is required.' }).trim().toLowerCase(),
});

const isReportType = (v: string): v is ReportType => (REPORT_TYPES as readonly string[]).includes(v);

export function registerReportRoutes(app: Hono<AppEnv>, s: Services): void {
  app.get('/api/reports/download', async (c) => {
    const me = c.get('user');
    const q = parseQuery(c, query);
    if (!isReportType(q.report_type)) throw badRequest(REPORT_MESSAGES.unknownType, 'report_type');
    const scan = await findScanRef(s.db, q.scan_id);
    if (!scan) throw notFound(REPORT_MESSAGES.scanNotFound);
    try {
      await requireApiAccess(s.repos, me.id, scan.api_id, 'view');
    } catch (err) {
      // Same answer as an unknown scan: the caller learns nothing about scans they cannot see.
      if (err instanceof ApiError && err.status === 404) throw notFound(REPORT_MESSAGES.scanNotFound);
      throw err;
    }
    if (scan.status !== 'completed') throw badRequest(REPORT_MESSAGES.notCompleted(scan.status), 'scan_id');
    const input = await loadReportInput(s.db, scan.id);
    if (!input) throw notFound(REPORT_MESSAGES.scanNotFound);
    const profileZone = (await s.repos.userSettings.getProfile(me.id)).timezone;
    const report = await renderReport(input, q.report_type, { timeZone: resolveTimeZone(profileZone, defaultTimeZone()) });
    s.logger.info('Report downloaded', { scan: scan.id, type: q.report_type, bytes: report.body.length });
    return new Response(new Uint8Array(report.body), {
      status: 200,
      headers: {
        'content-type': report.contentType,
        'content-disposition': contentDisposition(report.filename),
        'content-length': String(report.body.length),
      },
    });
  });
}
