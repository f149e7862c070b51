// "Compare with previous scan" (issue 17): this scan's new and recurring vulnerabilities (issue 31: the
// one count, so new plus recurring is the number every other screen shows) and the previous scan's
// findings it no longer sees; and (issue 26) the operations the previous scan reached that this one did
// not, so a broken login reads as lost coverage rather than as fixed findings. Long lists show their
// first rows; the findings list (filtered by trend) shows them all.

import type { ReactElement } from 'react';
import type { Finding, FindingBrief, ScanSummary } from '../../../../shared/contract';
import { COVERAGE_MESSAGES } from '../../../../shared/coverage-messages';
import { coverageLabel, type CoverageOperation } from '../../../../shared/coverage';
import { severityLevel, severityText, vulnerabilitiesText } from '../../../../shared/severity';
import { Spinner } from '../../components/Spinner';
import { when } from '../../lib/format';
import { MethodBadge } from '../../modals/shared';
import type { ComparedFindings } from './findings-view';

/** Rows each list draws at most; the rest are a click away in the findings list. */
export const COMPARE_LIST_LIMIT = 100;

/** The lost-coverage list: hidden when either scan kept no coverage (or there is no previous scan). */
export type LostCoverage = { status: 'hidden' } | { status: 'loading' } | { status: 'ready'; operations: CoverageOperation[] };

function LostCoverageList({ lost }: { lost: Exclude<LostCoverage, { status: 'hidden' }> }): ReactElement {
  const rows = lost.status === 'ready' ? lost.operations : [];
  const shown = rows.slice(0, COMPARE_LIST_LIMIT);
  return (
    <section className="panel compare-list" aria-labelledby="compare-lost-title" data-testid="compare-lost">
      <div className="panel-head">
        <h2 id="compare-lost-title">
          {COVERAGE_MESSAGES.lostTitle}{' '}
          {lost.status === 'ready' && (
            <span className="count-chip" data-testid="compare-lost-count">
              {rows.length}
            </span>
          )}
        </h2>
      </div>
      <p className="muted small" style={{ marginTop: -8 }}>
        {COVERAGE_MESSAGES.lostHint}
      </p>
      {lost.status === 'loading' ? (
        <Spinner label="Loading coverage" />
      ) : rows.length === 0 ? (
        <p className="muted small" data-testid="compare-lost-empty">
          {COVERAGE_MESSAGES.lostNone}
        </p>
      ) : (
        <ul className="compare-rows">
          {shown.map((op) => (
            <li key={coverageLabel(op)} data-testid="compare-lost-row" data-label={coverageLabel(op)}>
              <span className="compare-row compare-lost-row">
                {op.operation ? (
                  <span className="method method-gql" title="GraphQL operation">
                    GQL
                  </span>
                ) : (
                  <MethodBadge method={op.method || '*'} />
                )}
                <span className="mono compare-lost-path" title={op.operation ?? op.path}>
                  {op.operation ?? op.path}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {rows.length > shown.length && (
        <p className="small" style={{ marginBottom: 0 }}>
          {rows.length - shown.length} more.
        </p>
      )}
    </section>
  );
}

type Row = Pick<Finding, 'vulnerability_name' | 'method' | 'path' | 'severity'> & { cvss_score?: number; key: string; id?: string };

function CompareList({
  title,
  hint,
  rows,
  testId,
  onOpen,
  onShowAll,
}: {
  title: string;
  hint: string;
  rows: Row[];
  testId: string;
  onOpen?: (id: string) => void;
  onShowAll?: () => void;
}): ReactElement {
  const shown = rows.slice(0, COMPARE_LIST_LIMIT);
  return (
    <section className="panel compare-list" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <div className="panel-head">
        <h2 id={`${testId}-title`}>
          {title} <span className="count-chip" data-testid={`${testId}-count`}>{rows.length}</span>
        </h2>
      </div>
      <p className="muted small" style={{ marginTop: -8 }}>
        {hint}
      </p>
      {rows.length === 0 ? (
        <p className="muted small" data-testid={`${testId}-empty`}>
          None.
        </p>
      ) : (
        <ul className="compare-rows">
          {shown.map((r) => {
            const level = severityLevel(r);
            const body = (
              <>
                <span className={`sev sev-${level}`}>{severityText(r)}</span>
                <span className="compare-name">{r.vulnerability_name}</span>
                <span className="compare-endpoint">
                  <MethodBadge method={r.method || '*'} />
                  <span className="mono">{r.path}</span>
                </span>
              </>
            );
            return (
              <li key={r.key} data-testid={`${testId}-row`}>
                {onOpen && r.id ? (
                  <button type="button" className="compare-row" onClick={() => onOpen(r.id!)}>
                    {body}
                  </button>
                ) : (
                  <span className="compare-row">{body}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {rows.length > shown.length && (
        <p className="small" style={{ marginBottom: 0 }}>
          {rows.length - shown.length} more.{' '}
          {onShowAll && (
            <button type="button" className="button-link" onClick={onShowAll}>
              Show all in the findings list
            </button>
          )}
        </p>
      )}
    </section>
  );
}

export function CompareView({
  compared,
  previous,
  lost,
  onOpen,
  onShowTrend,
}: {
  compared: ComparedFindings;
  previous: ScanSummary | null;
  lost: LostCoverage;
  onOpen(id: string): void;
  onShowTrend(trend: Finding['trend']): void;
}): ReactElement {
  const asRow = (f: FindingBrief): Row => ({ ...f, key: f.id });
  const count = compared.new.length + compared.recurring.length;
  return (
    <div data-testid="compare-view">
      <p className="compare-this" data-testid="compare-this">
        This scan: <strong data-testid="compare-vulnerabilities">{vulnerabilitiesText(count)}</strong>
        {previous ? ` (${compared.new.length} new, ${compared.recurring.length} recurring).` : '.'}
        {compared.notCompared > 0 && (
          <span className="muted" data-testid="compare-not-compared">
            {' '}
            {compared.notCompared} informational or set-aside {compared.notCompared === 1 ? 'finding is' : 'findings are'} not compared: the findings list shows{' '}
            {compared.notCompared === 1 ? 'it' : 'them'}.
          </span>
        )}
      </p>
      <p className="muted" data-testid="compare-previous">
        {previous
          ? `Compared with the scan completed ${when(previous.completed_at)} (${vulnerabilitiesText(previous.vulnerabilities)}).`
          : 'No earlier completed scan of this API: every finding is new.'}
      </p>
      <div className="compare-grid">
        {lost.status !== 'hidden' && <LostCoverageList lost={lost} />}
        <CompareList
          title="New"
          hint="Vulnerabilities found by this scan, not by the previous one."
          rows={compared.new.map(asRow)}
          testId="compare-new"
          onOpen={onOpen}
          onShowAll={() => onShowTrend('new')}
        />
        <CompareList
          title="Recurring"
          hint="Vulnerabilities the previous scan found too."
          rows={compared.recurring.map(asRow)}
          testId="compare-recurring"
          onOpen={onOpen}
          onShowAll={() => onShowTrend('recurring')}
        />
        <CompareList
          title="Fixed"
          hint="Found by the previous scan, no longer seen."
          rows={compared.fixed.map((f) => ({ ...f, key: f.fingerprint }))}
          testId="compare-fixed"
        />
      </div>
    </div>
  );
}
