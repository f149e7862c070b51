// Scan History (spec sections 2, 9; issue 17 item 3): completed scans with a completion time, and next
// to them failed and cancelled scans with their reason, newest first; each links to its scan page, where
// the report is (View Report; the report modal became the page, issue 31 item 1).

import { useEffect, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { ApiSummary, ScanSummary } from '../../../shared/contract';
import { formatDurationSeconds } from '../../../shared/display';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../shared/messages';
import { listScans } from '../api/scans';
import { Icon } from '../components/Icon';
import { LoadStatus, type Loadable } from '../components/LoadStatus';
import { Modal } from '../components/Modal';
import { when } from '../lib/format';
import { scanHistory } from '../lib/scans';
import { currentAuth } from '../stores/useAuthStore';
import { reasonOf } from './shared';

type Load = Loadable<{ scans: ScanSummary[] }>;

export function ScanHistoryModal({ api, onClose }: { api: ApiSummary; onClose(): void }): ReactElement {
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  useEffect(() => {
    const auth = currentAuth();
    if (!auth) return;
    const controller = new AbortController();
    listScans(auth, api.id, controller.signal)
      .then((res) => {
        if (res.ok && Array.isArray(res.data?.scans)) setLoad({ kind: 'ready', scans: scanHistory(res.data.scans) });
        else setLoad({ kind: 'error', message: res.message || FALLBACK_MESSAGES.fetchScanList });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setLoad({ kind: 'error', message: reasonOf(err, FALLBACK_MESSAGES.fetchScanList) });
      });
    return () => controller.abort();
  }, [api.id]);

  return (
    <Modal
      title="Scan History"
      subtitle={api.name}
      onClose={onClose}
      wide
      testId="history-modal"
      footer={
        <button type="button" className="button button-primary" onClick={onClose}>
          Close
        </button>
      }
    >
      <LoadStatus load={load} label="Loading scan history" errorTestId="history-error" />
      {load.kind === 'ready' &&
        (load.scans.length === 0 ? (
          <p className="empty-state" data-testid="history-empty">
            {API_MESSAGES.noPastScans}
          </p>
        ) : (
          <table className="history-table" data-testid="history-table">
            <caption className="sr-only">Completed, failed and cancelled scans of {api.name}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Completed</th>
                <th scope="col" className="num">
                  Duration (s)
                </th>
                <th scope="col" className="num">
                  Score
                </th>
                <th scope="col" className="num">
                  Vulnerabilities
                </th>
                <th scope="col">
                  <span className="sr-only">Report</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {load.scans.map((s) =>
                s.status !== 'completed' ? (
                  <tr key={s.id} className="history-stopped" data-testid="history-failed-row" data-scan-id={s.id}>
                    {/* Under the spec's "Completed" header the cell says how the scan ended: "Failed <time>". */}
                    <td className="history-ended" data-testid="history-ended">
                      <span className={`pill pill-${s.status === 'failed' ? 'danger' : 'ready'}`}>{s.status === 'failed' ? 'Failed' : 'Cancelled'}</span>{' '}
                      {when(s.completed_at ?? s.started_at ?? s.created_at)}
                    </td>
                    <td colSpan={3} data-testid="history-failure">
                      <span data-testid="history-failure-reason">{s.failure_reason ?? (s.status === 'failed' ? 'No reason was recorded.' : 'Cancelled.')}</span>
                    </td>
                    <td className="num">
                      <Link to={`/scans/${s.id}`} className="button button-ghost button-small" data-testid="open-scan-page">
                        <Icon name="list" size={14} />
                        Scan page
                      </Link>
                    </td>
                  </tr>
                ) : (
                  <tr key={s.id} data-testid="history-row" data-scan-id={s.id}>
                    <td data-testid="history-completed">{when(s.completed_at)}</td>
                    <td className="num">{formatDurationSeconds(s.started_at, s.completed_at)}</td>
                    <td className="num">{s.score ?? '—'}</td>
                    <td className="num" data-testid="history-vulnerabilities">
                      {s.vulnerabilities}
                    </td>
                    <td className="num history-actions">
                      <Link to={`/scans/${s.id}`} className="button button-secondary button-small" data-testid="open-scan-page">
                        <Icon name="fileText" size={14} />
                        View Report
                      </Link>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        ))}
    </Modal>
  );
}
