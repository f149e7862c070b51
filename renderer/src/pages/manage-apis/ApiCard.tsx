// One API on API Management (spec section 2): name, LOCAL badge, "Shared by", status pill, id, dates,
// vulnerability count, the last scan's failure reason, a live progress bar while it scans, and the
// buttons its viewer may use.

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { ApiSummary } from '../../../../shared/contract';
import { cardStatus, isLocalBaseUrl } from '../../../../shared/display';
import { API_MESSAGES, CARD_STATUS, SCAN_MESSAGES } from '../../../../shared/messages';
import { Icon } from '../../components/Icon';
import { ShortId } from '../../components/ShortId';
import { ProgressBar } from '../../components/ProgressBar';
import { describeSchedule, when } from '../../lib/format';
import type { RunningScan } from '../../stores/useScanStore';

export type CardAction = 'new-scan' | 'endpoints' | 'history' | 'manage' | 'cancel-scan';

function pillTone(status: string, vulnerabilities: number): string {
  if (status === CARD_STATUS.scanning || status === 'Running') return 'running';
  if (status === CARD_STATUS.completed && vulnerabilities > 0) return 'warning';
  if (status === 'Completed') return 'success';
  if (status === 'Failed') return 'danger';
  return 'ready';
}

/** A button that may be disabled, with its tooltip on a wrapper (a disabled button gets no hover). */
export function NewScanButton({
  blockedReason,
  onClick,
  testId = 'new-scan',
  className = 'button button-primary button-small',
}: {
  blockedReason: string | null;
  onClick(): void;
  testId?: string;
  className?: string;
}): ReactElement {
  const tooltip = blockedReason ?? SCAN_MESSAGES.startNew;
  return (
    <span className="tooltip-wrap" title={tooltip} data-testid={`${testId}-tooltip`} data-tooltip={tooltip}>
      <button type="button" className={className} onClick={onClick} disabled={!!blockedReason} aria-label={blockedReason ? `New Scan (${blockedReason})` : undefined} data-testid={testId}>
        <Icon name="play" size={14} />
        New Scan
      </button>
    </span>
  );
}

export function ApiCard({
  api,
  running,
  blockedReason,
  onAction,
}: {
  api: ApiSummary;
  running: RunningScan | undefined;
  /** Why New Scan is disabled, or null. */
  blockedReason: string | null;
  onAction(action: CardAction): void;
}): ReactElement {
  const isRunning = !!running || api.scanStatus === 'Running';
  const status = cardStatus(api, isRunning);
  const owner = api.permission === 'owner';
  const titleId = `api-${api.id}-title`;
  return (
    <article className="api-card" aria-labelledby={titleId} data-testid="api-card" data-api-id={api.id} data-api-name={api.name}>
      <div className="api-card-head">
        <div style={{ minWidth: 0 }}>
          <div className="api-card-title">
            <h3 id={titleId}>{api.name}</h3>
            {isLocalBaseUrl(api.base_url) && (
              <span className="badge badge-local" title="This API runs on a local or private address" data-testid="local-badge">
                LOCAL
              </span>
            )}
          </div>
          {!owner && (
            <p className="api-shared-by" data-testid="shared-by">
              {API_MESSAGES.sharedBy(api.owner_name)}
              <span className="badge badge-neutral">
                {api.permission === 'manage' ? 'Manage' : 'View'}
              </span>
            </p>
          )}
        </div>
        <span className={`pill pill-${pillTone(status, api.vulnerabilitiesFound)}`} data-testid="status-pill">
          {status}
        </span>
      </div>

      <dl className="api-meta">
        <dt>ID</dt>
        <dd>
          <ShortId id={api.id} label="API ID" testId="api-id" />
        </dd>
        <dt>Base URL</dt>
        <dd className="mono">{api.base_url || '—'}</dd>
        <dt>Created</dt>
        <dd>{when(api.created_at || api.imported_on)}</dd>
        <dt>Last scan</dt>
        <dd data-testid="last-scanned">{when(api.lastScanned)}</dd>
        <dt>Endpoints</dt>
        <dd>{api.endpoint_count}</dd>
        {api.schedule && (
          <>
            <dt>Schedule</dt>
            <dd data-testid="card-schedule" title={api.schedule.next_run_at ? `Next run ${when(api.schedule.next_run_at)}` : undefined}>
              {describeSchedule(api.schedule)}
            </dd>
          </>
        )}
      </dl>

      {api.vulnerabilitiesFound > 0 && (
        <span className="api-vulns" data-testid="vuln-count">
          <Icon name="bug" size={16} />
          {api.vulnerabilitiesFound} {api.vulnerabilitiesFound === 1 ? 'vulnerability' : 'vulnerabilities'}
        </span>
      )}

      {!isRunning && api.lastFailureReason && (
        <p className="api-card-failure small" title={api.lastFailureReason} data-testid="last-failure-reason">
          <Icon name="alert" size={14} />
          <span>
            {api.scanStatus === 'Cancelled' ? 'Last scan cancelled' : 'Last scan failed'}: {api.lastFailureReason}
          </span>
        </p>
      )}

      {isRunning && (
        <div className="scan-progress" data-testid="scan-progress">
          <div className="scan-progress-head">
            <span>
              {running && running.progress.total > 0
                ? `${running.progress.done} of ${running.progress.total} checks`
                : 'Scan in progress'}
            </span>
            {running && (owner || api.permission === 'manage') && (
              <button type="button" className="button-link small" onClick={() => onAction('cancel-scan')} data-testid="cancel-scan">
                Cancel
              </button>
            )}
          </div>
          <ProgressBar done={running?.progress.done} total={running?.progress.total} label={`Scan progress of ${api.name}`} testId="scan-progress-bar" />
        </div>
      )}

      <div className="api-card-actions">
        {owner ? (
          <>
            <NewScanButton blockedReason={blockedReason} onClick={() => onAction('new-scan')} />
            <button type="button" className="button button-secondary button-small" onClick={() => onAction('endpoints')} data-testid="endpoints-button">
              <Icon name="list" size={14} />
              Endpoints
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => onAction('history')} data-testid="history-button">
              <Icon name="clock" size={14} />
              History
            </button>
            <button type="button" className="button button-ghost button-small" onClick={() => onAction('manage')} data-testid="manage-button">
              <Icon name="settings" size={14} />
              Manage
            </button>
          </>
        ) : (
          <button type="button" className="button button-secondary button-small" onClick={() => onAction('manage')} data-testid="manage-button">
            <Icon name="settings" size={14} />
            Manage
          </button>
        )}
        {api.lastScanned && api.lastScanned !== 'Never' && (
          <Link to={`/apis/${api.id}/latest-scan`} className="button button-ghost button-small" data-testid="latest-scan-link">
            <Icon name="fileText" size={14} />
            Latest scan
          </Link>
        )}
      </div>
    </article>
  );
}
