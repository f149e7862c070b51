// The scan page's Coverage tab (issue 26): the header line ("reached 41 of 57 operations ..."), the
// commonest reasons checks did not run with what to do about each, filters with counts, a search on
// the path, and the table of operations by identity. While the scan runs, and for a scan that kept no
// coverage, a sentence says why there is nothing to show.

import { useEffect, useMemo, useState, type ReactElement } from 'react';
import type { ScanStatus } from '../../../../shared/constants';
import { COVERAGE_MESSAGES } from '../../../../shared/coverage-messages';
import { coverageHeadline } from '../../../../shared/coverage';
import { Alert } from '../../components/Alert';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { capitalize } from '../../lib/format';
import type { CoverageEntry } from '../../stores/useScanCoverageStore';
import { CoverageTable, TextWithCode } from './CoverageTable';
import { COVERAGE_FILTERS, coverageFilterCounts, coverageRows, filterCoverageRows, identityColumns, type CoverageFilter } from './coverage-view';

/** How many of the summary's reasons the header names. */
const TOP_REASONS = 3;

export function CoverageView({
  scanStatus,
  entry,
  filter,
  query,
  onFilter,
  onQuery,
  onRetry,
  checkName,
}: {
  scanStatus: ScanStatus;
  entry: CoverageEntry | undefined;
  filter: CoverageFilter;
  query: string;
  onFilter(filter: CoverageFilter): void;
  onQuery(query: string): void;
  onRetry(): void;
  checkName(id: string): string;
}): ReactElement {
  const coverage = entry?.status === 'ready' ? entry.coverage : null;
  const rows = useMemo(() => (coverage ? coverageRows(coverage) : []), [coverage]);
  const identities = useMemo(() => (coverage ? identityColumns(coverage) : []), [coverage]);
  const counts = useMemo(() => coverageFilterCounts(rows), [rows]);
  const shown = useMemo(() => filterCoverageRows(rows, filter, query), [rows, filter, query]);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  // Another scan's ledger: its rows open closed.
  useEffect(() => setOpen(new Set()), [coverage]);

  if (scanStatus === 'running')
    return (
      <div className="panel empty-state" data-testid="coverage-running">
        <Icon name="clock" size={36} />
        <h3>{COVERAGE_MESSAGES.running}</h3>
      </div>
    );
  if (!entry || entry.status === 'loading')
    return (
      <div className="loading-block" data-testid="coverage-loading">
        <Spinner label="Loading coverage" />
      </div>
    );
  if (entry.status === 'error')
    return (
      <Alert kind="error" testId="coverage-error">
        <div className="scan-failure">
          <span>{COVERAGE_MESSAGES.loadFailed(entry.error)}</span>
          <button type="button" className="button button-secondary button-small" onClick={onRetry} data-testid="coverage-retry">
            Try again
          </button>
        </div>
      </Alert>
    );
  if (!coverage)
    return (
      <div className="panel empty-state" data-testid="coverage-none">
        <Icon name="layers" size={36} />
        <h3>{scanStatus === 'completed' ? COVERAGE_MESSAGES.predates : COVERAGE_MESSAGES.noneKept}</h3>
      </div>
    );

  const { summary } = coverage;
  const reasons = summary.reasons.slice(0, TOP_REASONS);
  const toggle = (key: string) =>
    setOpen((s) => {
      const next = new Set(s);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  return (
    <div className="cov-view" data-testid="coverage-view">
      <section className="panel cov-summary" aria-labelledby="coverage-headline">
        <p className="cov-headline" id="coverage-headline" data-testid="coverage-headline">
          {coverageHeadline(summary)}
        </p>
        {scanStatus !== 'completed' && (
          <p className="cov-stopped small muted" data-testid="coverage-stopped">
            {COVERAGE_MESSAGES.stopped}
          </p>
        )}
        {reasons.length > 0 && (
          <>
            <h2 className="cov-reasons-title">{COVERAGE_MESSAGES.reasonsTitle}</h2>
            <ol className="cov-reasons">
              {reasons.map((r) => (
                <li key={r.reason} data-testid="coverage-reason" data-reason={r.reason}>
                  <p className="cov-reason-head">
                    <strong>{capitalize(r.label)}</strong>
                    <span className="count-chip" data-testid="coverage-reason-count">
                      {r.count} {r.count === 1 ? 'check run' : 'check runs'} skipped
                    </span>
                  </p>
                  <p className="cov-fix small">
                    {COVERAGE_MESSAGES.reasonsFix} <TextWithCode text={r.fix} />
                  </p>
                </li>
              ))}
            </ol>
          </>
        )}
      </section>

      {rows.length === 0 ? (
        <div className="panel empty-state" data-testid="coverage-empty">
          <h3>{COVERAGE_MESSAGES.noOperations}</h3>
        </div>
      ) : (
        <>
          <div className="scan-toolbar cov-toolbar" role="search" aria-label="Filter operations">
            <div className="segmented cov-filters" role="group" aria-label="Show operations">
              {COVERAGE_FILTERS.map((f) => (
                <button
                  key={f.id}
                  type="button"
                  aria-pressed={filter === f.id}
                  title={f.hint}
                  onClick={() => onFilter(f.id)}
                  data-testid={`coverage-filter-${f.id}`}
                >
                  {f.label}
                  <span className="cov-filter-count" data-testid={`coverage-filter-${f.id}-count`}>
                    {counts[f.id]}
                  </span>
                </button>
              ))}
            </div>
            <label className="search-input">
              <Icon name="search" size={18} />
              <span className="sr-only">Search operations by method, path or name</span>
              <input type="search" placeholder="Search paths and operations" value={query} onChange={(e) => onQuery(e.target.value)} data-testid="coverage-search" />
            </label>
          </div>
          <p className="scan-shown small muted" aria-live="polite">
            <span data-testid="coverage-shown">
              {shown.length} of {rows.length} {rows.length === 1 ? 'operation' : 'operations'}
            </span>
            {(filter !== 'all' || query.trim() !== '') && (
              <button
                type="button"
                className="button-link"
                onClick={() => {
                  onFilter('all');
                  onQuery('');
                }}
                data-testid="coverage-clear-filters"
              >
                Clear filters
              </button>
            )}
            <span className="cov-legend" aria-hidden="true">
              <span className="cov-cell cov-2xx">2xx</span>
              <span className="cov-cell cov-3xx">3xx</span>
              <span className="cov-cell cov-4xx">4xx</span>
              <span className="cov-cell cov-5xx">5xx</span>
              <span className="cov-cell cov-timeout">timeout</span>
              <span className="cov-cell cov-not-sent">— not sent</span>
            </span>
          </p>
          {shown.length === 0 ? (
            <p className="panel empty-state" data-testid="coverage-no-rows">
              {COVERAGE_MESSAGES.noRows}
            </p>
          ) : (
            <CoverageTable rows={shown} identities={identities} open={open} onToggle={toggle} checkName={checkName} />
          )}
        </>
      )}
    </div>
  );
}
