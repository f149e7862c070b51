// Scan Report (spec sections 2, 7, 9): the scan's times and duration (seconds, 2 decimals), score,
// who the scan spoke as (identities, users it created, refreshes), its vulnerabilities (the one count),
// findings by severity level (critical apart from high; a severity outside the buckets is info), 10 per
// page, each with its evidence and curl command; skipped checks; and the report downloads (executive
// and technical PDFs, JSON/SARIF/HTML/JUnit exports).

import { useEffect, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { PAGE_SIZES } from '../../../shared/constants';
import type { ApiSummary, Finding, ScanDetails } from '../../../shared/contract';
import { formatDurationSeconds } from '../../../shared/display';
import { LEVEL_NAMES, SEVERITY_LEVELS, severityLevel, severityText, vulnerabilityCount, type SeverityLevel } from '../../../shared/severity';
import { curlVariablesLine } from '../../../shared/curl-variables';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../shared/messages';
import { scanDetails } from '../api/scans';
import { Alert } from '../components/Alert';
import { Icon } from '../components/Icon';
import { LoadStatus, type Loadable } from '../components/LoadStatus';
import { Modal } from '../components/Modal';
import { useTransient } from '../hooks/useTransient';
import { capitalize, when } from '../lib/format';
import { orderFindings, paginate, severityCounts } from '../lib/scans';
import { currentAuth } from '../stores/useAuthStore';
import { ReportDownloads, ScanIdentities } from '../pages/scan/ScanAbout';
import { FindingGraphqlSection, kindOfOperation, OperationBadge } from './graphql-parts';
import { CodeBlock, MessageLine, MethodBadge, Pager, reasonOf, ReferenceList } from './shared';

type Load = Loadable<{ details: ScanDetails }>;


function FindingItem({ finding, onCopied }: { finding: Finding; onCopied(ok: boolean): void }): ReactElement {
  const level = severityLevel(finding);
  return (
    <details className="finding" data-testid="finding" data-severity={level}>
      <summary>
        <span className={`sev sev-${level}`}>{severityText(finding)}</span>
        <span className="finding-title" data-testid="finding-name">
          {finding.vulnerability_name}
        </span>
        <span className="endpoint-line">
          {finding.graphql?.operation ? (
            <>
              <OperationBadge kind={kindOfOperation(finding.graphql.operation)} />
              <span className="mono" data-testid="finding-operation">
                {finding.graphql.operation}
              </span>
            </>
          ) : (
            <>
              <MethodBadge method={finding.method || '*'} />
              <span className="mono">{finding.path}</span>
            </>
          )}
        </span>
        <span className="muted small">CVSS {Number(finding.cvss_score ?? 0).toFixed(1)}</span>
      </summary>
      <div className="finding-body">
        <div className="guide-meta">
          {finding.owasp && <span className="badge badge-primary">{finding.owasp}</span>}
          {finding.cwe && <span className="badge badge-neutral">{finding.cwe}</span>}
          {finding.confidence && <span className="badge badge-neutral">{capitalize(finding.confidence)} confidence</span>}
          {finding.trend && <span className="badge badge-neutral">{finding.trend === 'new' ? 'New' : 'Recurring'}</span>}
          {finding.cvss_vector && <span className="mono small">{finding.cvss_vector}</span>}
        </div>
        <div>
          <h4>Description</h4>
          <p data-testid="finding-description">{finding.description}</p>
        </div>
        <div>
          <h4>Recommendation</h4>
          <p data-testid="finding-recommendation">{finding.recommendation}</p>
        </div>
        {finding.graphql && <FindingGraphqlSection graphql={finding.graphql} testId="finding-graphql" heading="h4" onCopied={onCopied} />}
        {finding.evidence && <CodeBlock title="Evidence" text={finding.evidence} testId="finding-evidence" onCopied={onCopied} />}
        {finding.curl && <CodeBlock title="Reproduce with curl" text={finding.curl} testId="finding-curl" onCopied={onCopied} />}
        {finding.curl && curlVariablesLine(finding.curl) && <p className="muted small" data-testid="curl-variables">{curlVariablesLine(finding.curl)}</p>}
        {finding.references?.length > 0 && (
          <div>
            <h4>References</h4>
            <ReferenceList refs={finding.references} className="reference-list" />
          </div>
        )}
      </div>
    </details>
  );
}

export function ScanReportModal({
  api,
  scanId,
  onClose,
  onBack,
}: {
  api: ApiSummary;
  scanId: string;
  onClose(): void;
  onBack?: () => void;
}): ReactElement {
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [page, setPage] = useState(0);
  const [filter, setFilter] = useState<SeverityLevel | null>(null);
  const { message, show } = useTransient();

  useEffect(() => {
    const auth = currentAuth();
    if (!auth) return;
    const controller = new AbortController();
    scanDetails(auth, scanId, controller.signal)
      .then((res) => {
        if (res.ok && res.data) setLoad({ kind: 'ready', details: res.data });
        else setLoad({ kind: 'error', message: API_MESSAGES.fetchReportError(res.message || FALLBACK_MESSAGES.pollScan) });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setLoad({ kind: 'error', message: API_MESSAGES.fetchReportError(reasonOf(err, FALLBACK_MESSAGES.pollScan)) });
      });
    return () => controller.abort();
  }, [scanId]);

  const details = load.kind === 'ready' ? load.details : null;
  const info = details?.results.scan_info;
  const findings = orderFindings(details?.results.results ?? []);
  const counts = severityCounts(findings);
  const vulnerabilities = vulnerabilityCount(findings);
  const shown = filter ? findings.filter((f) => severityLevel(f) === filter) : findings;
  const view = paginate(shown, page, PAGE_SIZES.reportModal);

  const onCopied = (ok: boolean) => show(ok ? 'success' : 'error', ok ? 'Copied to the clipboard.' : 'Could not copy: select the text and copy it instead.');

  return (
    <Modal
      title="Scan Report"
      subtitle={api.name}
      onClose={onClose}
      wide
      testId="report-modal"
      footer={
        <>
          {onBack && (
            <button type="button" className="button button-ghost spacer" onClick={onBack} data-testid="report-back">
              <Icon name="arrowLeft" size={16} />
              Back to history
            </button>
          )}
          <Link to={`/scans/${scanId}`} className="button button-secondary" data-testid="report-open-page">
            <Icon name="list" size={16} />
            Open scan page
          </Link>
          <button type="button" className="button button-primary" onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      <MessageLine message={message} testId="report-message" />
      <LoadStatus load={load} label="Loading report" errorTestId="report-error" />
      {details && info && (
        <>
          <dl className="report-facts" data-testid="report-facts">
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
              <dd data-testid="report-duration">{formatDurationSeconds(info.started_at, info.completed_at)} s</dd>
            </div>
            <div>
              <dt>Security score</dt>
              <dd data-testid="report-score">{info.score ?? '—'} / 100</dd>
            </div>
          </dl>

          {details.status === 'failed' && info.failure_reason && (
            <Alert kind="error" testId="report-failure">
              The scan failed: {info.failure_reason}
            </Alert>
          )}

          <ScanIdentities info={info} scanId={scanId} />

          <div style={{ marginBottom: 18 }}>
            <ReportDownloads apiName={api.name} scanId={scanId} completedAt={info.completed_at} onResult={show} />
          </div>

          <div className="severity-summary" role="group" aria-label="Filter findings by severity" data-testid="severity-summary">
            {SEVERITY_LEVELS.map((s) => (
              <button
                key={s}
                type="button"
                className={`severity-box sev-${s}`}
                style={{ border: filter === s ? '2px solid currentColor' : '2px solid transparent', cursor: 'pointer', font: 'inherit' }}
                aria-pressed={filter === s}
                onClick={() => {
                  setFilter(filter === s ? null : s);
                  setPage(0);
                }}
                data-testid={`severity-${s}`}
              >
                <strong data-testid={`severity-${s}-count`}>{counts[s]}</strong>
                <span>{LEVEL_NAMES[s]}</span>
              </button>
            ))}
          </div>

          <h3 style={{ fontSize: '1.05rem' }}>
            Findings{' '}
            <span className="muted small" data-testid="findings-total">
              ({shown.length}
              {filter ? ` ${filter}` : ''})
            </span>{' '}
            <span className="muted small" title="Findings that are not informational and not set aside in triage">
              · <span data-testid="report-vulnerabilities">{vulnerabilities}</span> {vulnerabilities === 1 ? 'vulnerability' : 'vulnerabilities'}
            </span>
          </h3>
          {shown.length === 0 ? (
            <p className="empty-state" data-testid="findings-empty">
              {findings.length === 0 ? 'This scan found no vulnerabilities.' : `No ${filter} findings.`}
            </p>
          ) : (
            <div data-testid="findings">
              {view.rows.map((f) => (
                <FindingItem key={f.id} finding={f} onCopied={onCopied} />
              ))}
            </div>
          )}
          <Pager page={view.page} pageCount={view.pageCount} total={shown.length} pageSize={PAGE_SIZES.reportModal} onPage={setPage} label="Findings" />

          {(info.skipped_checks ?? []).length > 0 && (
            <section style={{ marginTop: 20 }} aria-labelledby="skipped-title">
              <h3 id="skipped-title" style={{ fontSize: '1rem' }}>
                Skipped checks
              </h3>
              <ul className="small" data-testid="skipped-checks" style={{ paddingLeft: 20 }}>
                {info.skipped_checks.map((c) => (
                  <li key={`${c.check_id}-${c.reason}`}>
                    <strong>{c.title}</strong>: {c.reason}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {(info.fixed ?? []).length > 0 && (
            <section style={{ marginTop: 12 }} aria-labelledby="fixed-title">
              <h3 id="fixed-title" style={{ fontSize: '1rem' }}>
                Fixed since the previous scan
              </h3>
              <ul className="small" style={{ paddingLeft: 20 }}>
                {info.fixed.map((f) => (
                  <li key={f.fingerprint}>
                    {f.severity && <span className={`sev sev-${severityLevel(f)}`}>{severityText(f)}</span>} {f.vulnerability_name} —{' '}
                    <span className="mono">
                      {f.method} {f.path}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <p className="muted small" style={{ marginTop: 16, marginBottom: 0 }}>
            {info.requests_sent} requests sent.{' '}
            {typeof info.seed === 'number' && (
              <span data-testid="scan-seed">
                Seed <span className="mono">{info.seed}</span>: a scan with this seed (<code>--seed {info.seed}</code>) sends the same probe values.{' '}
              </span>
            )}
            curl commands use shell variables in place of keys, tokens and passwords (<code>$PORTCULLIS_KEY_1</code>,{' '}
            <code>$PORTCULLIS_ALICE_TOKEN</code>, <code>$PORTCULLIS_ALICE_PASSWORD</code>, or <code>$VICTIM_TOKEN</code> and{' '}
            <code>$ATTACKER_TOKEN</code> in numbered steps); each finding lists the ones its command reads. A forged token is built by
            the command&apos;s first lines from your key 1, with a fresh expiry.
          </p>
        </>
      )}
    </Modal>
  );
}
