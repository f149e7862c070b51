// Report downloads (spec section 7): the one binary route. It goes through request() like every other
// call; the body is read as a Blob, which the screen saves under the spec's file name.

import type { ReportType } from '../../../shared/constants';
import { NetworkError } from './client';
import { desktopBridge, request } from './request';
import type { Auth } from './session';

export type DownloadResult =
  | { ok: true; blob: Blob; contentType: string }
  | { ok: false; status: number; message: string };

export function downloadReport(auth: Auth, scanId: string, type: ReportType): Promise<DownloadResult> {
  const qs = new URLSearchParams({ scan_id: scanId, report_type: type, user_id: auth.userId });
  return downloadFile(auth, `/api/reports/download?${qs.toString()}`);
}

/** A scan's traffic as HAR 1.2 (issue 27): a file like a report, once the scan has ended. */
export function downloadTraffic(auth: Auth, scanId: string): Promise<DownloadResult> {
  return downloadFile(auth, `/api/scan/traffic?${new URLSearchParams({ scan_id: scanId }).toString()}`);
}

async function downloadFile(auth: Auth, path: string): Promise<DownloadResult> {
  let res: Response;
  try {
    res = await request(path, {
      method: 'GET',
      headers: { accept: '*/*', authorization: `Bearer ${auth.token}` },
    });
  } catch (err) {
    throw new NetworkError(err);
  }
  const contentType = res.headers.get('content-type') ?? '';
  if (!res.ok) {
    let message = '';
    if (contentType.includes('json')) {
      try {
        const body = (await res.json()) as { message?: unknown };
        if (typeof body.message === 'string') message = body.message;
      } catch {
        message = '';
      }
    }
    return { ok: false, status: res.status, message };
  }
  return { ok: true, blob: await res.blob(), contentType };
}

/**
 * Saves a downloaded file under `filename`: in the desktop app through the system's save dialog (the
 * native helper; false when the user cancels), in a browser as a download.
 */
export async function saveBlob(blob: Blob, filename: string): Promise<boolean> {
  const bridge = desktopBridge();
  if (bridge?.saveFile) {
    const res = await bridge.saveFile({ fileName: filename, data: new Uint8Array(await blob.arrayBuffer()) });
    if (!res.ok) throw new Error(res.message);
    return res.saved;
  }
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Give the download a moment to pick the URL up before it is released.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return true;
}
