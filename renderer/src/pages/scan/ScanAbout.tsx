// What a scan was, apart from its findings (issue 31 item 1): the report downloads, who the scan spoke
// as (identities, users it created, renewals), the checks it skipped and its notes, its seed and write
// policy. The scan page's "About this scan" tab shows them, its problems apart from its information; the
// Reports menu uses the downloads.

import { useState, type ReactElement } from 'react';
import type { PdfReportType, ReportType } from '../../../../shared/constants';
import type { CreatedUserReport, CreatedUserWithPassword, ScanInfo } from '../../../../shared/contract';
import { formatDurationSeconds, reportFileName } from '../../../../shared/display';
import { noteHeading, PROBLEMS_LEAD, splitNotes } from '../../../../shared/scan-notes';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../../shared/messages';
import { downloadReport, saveBlob } from '../../api/reports';
import { scanCreatedUsers } from '../../api/scans';
import { Alert } from '../../components/Alert';
import { Icon } from '../../components/Icon';
import { capitalize, when } from '../../lib/format';
import { reasonOf } from '../../modals/shared';
import { currentAuth } from '../../stores/useAuthStore';

const EXPORTS: { type: Exclude<ReportType, PdfReportType>; label: string }[] = [
  { type: 'json', label: 'JSON' },
  { type: 'sarif', label: 'SARIF' },
  { type: 'html', label: 'HTML' },
  { type: 'junit', label: 'JUnit' },
];

/** The executive and technical PDFs and the JSON, SARIF, HTML and JUnit exports of an ended scan. */
export function ReportDownloads({
  apiName,
  scanId,
  completedAt,
  onResult,
}: {
  apiName: string;
  scanId: string;
  completedAt: string | null;
  onResult(kind: 'success' | 'error', message: string): void;
}): ReactElement {
  const [downloading, setDownloading] = useState<ReportType | null>(null);
  const download = async (type: ReportType) => {
    const auth = currentAuth();
    if (!auth || downloading) return;
    setDownloading(type);
    try {
      const res = await downloadReport(auth, scanId, type);
      if (!res.ok) {
        onResult('error', API_MESSAGES.downloadReportError(res.message || FALLBACK_MESSAGES.downloadReport));
        return;
      }
      // Named in the viewer's time zone after the scan's completion (spec section 7), exports alike.
      // The desktop app asks where to save; a cancelled dialog is not a download.
      if (await saveBlob(res.blob, reportFileName(apiName, type, completedAt ? new Date(completedAt) : new Date()))) onResult('success', API_MESSAGES.reportDownloaded);
    } catch (err) {
      onResult('error', API_MESSAGES.downloadReportError(reasonOf(err, FALLBACK_MESSAGES.downloadReport)));
    } finally {
      setDownloading(null);
    }
  };
  return (
    <div className="downloads" aria-label="Downloads" role="group">
      {(['executive', 'technical'] as const).map((t) => (
        <button key={t} type="button" className="button button-secondary button-small" onClick={() => void download(t)} disabled={!!downloading} data-testid={`download-${t}`}>
          <Icon name="download" size={14} />
          {downloading === t ? 'Downloading...' : `${capitalize(t)} PDF`}
        </button>
      ))}
      <span className="muted small" style={{ marginLeft: 6 }}>
        Export:
      </span>
      {EXPORTS.map((e) => (
        <button key={e.type} type="button" className="button button-ghost button-small" onClick={() => void download(e.type)} disabled={!!downloading} data-testid={`download-${e.type}`}>
          {downloading === e.type ? 'Downloading...' : e.label}
        </button>
      ))}
    </div>
  );
}

const ROLE_LABELS: Record<string, string> = { user: 'User', privileged: 'Privileged', lower: 'Lower-privileged' };

/**
 * The users the scan registered on the target. Their passwords stay on the server until asked for
 * (they are real accounts' credentials): one click fetches and shows them, another hides them.
 */
function CreatedUsers({ scanId, created }: { scanId: string; created: CreatedUserReport[] }): ReactElement {
  const [shown, setShown] = useState<CreatedUserWithPassword[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    if (shown) {
      setShown(null);
      return;
    }
    const auth = currentAuth();
    if (!auth || busy) return;
    setBusy(true);
    setError(null);
    try {
      const res = await scanCreatedUsers(auth, scanId);
      if (res.ok && res.data) setShown(res.data.users);
      else setError(`Could not load the passwords: ${res.message || 'the server did not say why'}. Try again.`);
    } catch (err) {
      setError(`Could not load the passwords: ${reasonOf(err, 'the server could not be reached')}. Try again.`);
    } finally {
      setBusy(false);
    }
  };
  const list: (CreatedUserReport & { password?: string | null })[] = shown ?? created;
  return (
    <>
      <p className="small" style={{ margin: '10px 0 0' }}>
        <strong>Users the scan created</strong> ({created.length}):{' '}
        <button type="button" className="button button-secondary button-small" onClick={() => void toggle()} disabled={busy} data-testid="report-created-passwords">
          {shown ? 'Hide passwords' : busy ? 'Loading passwords…' : 'Show passwords'}
        </button>
      </p>
      {error && (
        <Alert kind="error" testId="report-created-passwords-error">
          {error}
        </Alert>
      )}
      <ul className="created-users small" data-testid="report-created-users">
        {list.map((u, n) => (
          <li key={`${u.username ?? u.email ?? ''}-${n}`} data-testid="report-created-user">
            <span className="mono">{[u.username, u.email].filter(Boolean).join(' / ') || 'unnamed'}</span> — {u.purpose} <span className="muted">({u.operation})</span>
            {shown && (
              <>
                {' '}
                password:{' '}
                {u.password ? (
                  <span className="mono" data-testid="report-created-user-password">
                    {u.password}
                  </span>
                ) : (
                  <span className="muted">not kept</span>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

/** Who the scan spoke as: its identities, the users it created (passwords on request) and its renewals. */
export function ScanIdentities({ info, scanId }: { info: ScanInfo; scanId: string }): ReactElement | null {
  const identities = info.identities ?? [];
  if (!identities.length) return null;
  const created = info.created_users ?? [];
  return (
    <section className="report-identities" aria-labelledby="report-identities-title" data-testid="report-identities">
      <h3 id="report-identities-title">Identities</h3>
      <div style={{ overflowX: 'auto' }}>
        <table className="history-table">
          <thead>
            <tr>
              <th scope="col">Identity</th>
              <th scope="col">Role</th>
              <th scope="col">How obtained</th>
              <th scope="col">Verified as</th>
              <th scope="col" className="num">
                Refreshes
              </th>
              <th scope="col" className="num">
                Failed logins
              </th>
            </tr>
          </thead>
          <tbody>
            {identities.map((i) => (
              <tr key={i.name} data-testid="report-identity" data-identity-name={i.name}>
                <th scope="row">{i.name}</th>
                <td>{ROLE_LABELS[i.role] ?? i.role}</td>
                <td>{i.obtained}</td>
                <td data-testid="report-identity-verified">{i.verified_as ?? <span className="muted">not confirmed</span>}</td>
                <td className="num">{i.refreshes}</td>
                <td className="num" data-testid="report-identity-failures">
                  {i.failures > 0 ? <strong className="text-danger">{i.failures}</strong> : 0}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {created.length > 0 && <CreatedUsers scanId={scanId} created={created} />}
      <p className="muted small" style={{ margin: '6px 0 0' }} data-testid="report-refreshes">
        {info.refreshes ?? 0} credential refresh{(info.refreshes ?? 0) === 1 ? '' : 'es'} during the scan.
      </p>
    </section>
  );
}


/** A scan's notes of one kind: problems stand out (first, in a warning box), information reads as a plain list. */
function NoteList({ kind, notes }: { kind: 'problems' | 'info'; notes: string[] }): ReactElement | null {
  if (!notes.length) return null;
  const problems = kind === 'problems';
  return (
    <section className={`scan-notes scan-notes-${kind}`} aria-labelledby={`scan-about-${kind}`} data-testid={problems ? 'scan-problems' : 'scan-info-notes'}>
      <h3 id={`scan-about-${kind}`}>
        {problems && <Icon name="alert" size={16} />}
        {noteHeading(problems ? 'problem' : 'info', notes.length)}
      </h3>
      {problems && <p className="small scan-notes-lead">{PROBLEMS_LEAD}</p>}
      <ul className="small" data-testid={problems ? 'scan-problem-notes' : 'scan-notes'}>
        {notes.map((n, i) => (
          <li key={`${i}-${n}`} data-testid={problems ? 'scan-problem' : 'scan-note'}>
            {n}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The scan page's "About this scan" tab: its problems first, then identities, when and how it ran
 * (times, duration in seconds with 2 decimals as the spec's report had it, requests, write policy, seed),
 * skipped checks and the informational notes.
 */
export function ScanAbout({ info, scanId }: { info: ScanInfo; scanId: string }): ReactElement {
  const skipped = info.skipped_checks ?? [];
  const notes = splitNotes(info.errors ?? [], info.problems);
  return (
    <div className="scan-about" data-testid="scan-about">
      <NoteList kind="problems" notes={notes.problems} />
      <ScanIdentities info={info} scanId={scanId} />
      <section aria-labelledby="scan-about-policy">
        <h3 id="scan-about-policy">How the scan ran</h3>
        <dl className="report-facts scan-about-times" data-testid="scan-about-times">
          <div>
            <dt>Started</dt>
            <dd>{when(info.started_at)}</dd>
          </div>
          <div>
            <dt>Completed</dt>
            <dd>{when(info.completed_at)}</dd>
          </div>
          <div>
            <dt>Duration</dt>
            <dd data-testid="scan-about-duration">{formatDurationSeconds(info.started_at, info.completed_at)} s</dd>
          </div>
        </dl>
        <ul className="small" style={{ paddingLeft: 20 }}>
          <li data-testid="scan-about-requests">{info.requests_sent} requests sent.</li>
          <li data-testid="scan-about-writes">
            {info.writes === 'existing'
              ? 'Writes: the scan could change and delete objects it did not create (a disposable test instance).'
              : 'Writes: the scan changed and deleted only objects it created itself.'}
            {(info.destructive ?? []).length > 0 && <> Destructive operations it was allowed to call: {(info.destructive ?? []).join(', ')}.</>}
          </li>
          {typeof info.seed === 'number' && (
            <li data-testid="scan-seed">
              Seed <span className="mono">{info.seed}</span>: a scan with this seed (<code>--seed {info.seed}</code>) sends the same probe values.
            </li>
          )}
        </ul>
      </section>
      {skipped.length > 0 && (
        <section aria-labelledby="scan-about-skipped">
          <h3 id="scan-about-skipped">Skipped checks ({skipped.length})</h3>
          <ul className="small" data-testid="skipped-checks" style={{ paddingLeft: 20 }}>
            {skipped.map((c) => (
              <li key={`${c.check_id}-${c.reason}`}>
                <strong>{c.title}</strong>: {c.reason}
              </li>
            ))}
          </ul>
        </section>
      )}
      <NoteList kind="info" notes={notes.info} />
    </div>
  );
}
