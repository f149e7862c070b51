// The scan page (issue 17, /scans/:scanId): one scan's findings grouped by OWASP category, check and
// endpoint in a virtualised list, with filters, a search, a detail pane with triage, keyboard
// navigation (up/down through findings, T for triage), a Coverage tab (issue 26: what the scan reached
// and exercised) and a "compare with previous scan" view. While the scan runs, a live header and the
// findings as they are found; a failed or cancelled scan shows its reason with Retry.

import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactElement, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { CONFIDENCES, TRIAGE_MARK_STATES } from '../../../../shared/constants';
import { COVERAGE_MESSAGES } from '../../../../shared/coverage-messages';
import { LEVEL_NAMES, SEVERITY_LEVELS, vulnerabilityCount, vulnerabilityLevels } from '../../../../shared/severity';
import { FALLBACK_MESSAGES, SCAN_MESSAGES } from '../../../../shared/messages';
import { exportTriage } from '../../api/findings';
import { downloadTraffic, saveBlob } from '../../api/reports';
import { cancelScan } from '../../api/scans';
import { trafficFileName } from '../../../../shared/display';
import { SCAN_TRAFFIC_MESSAGES } from '../../../../shared/scan-traffic';
import { splitNotes } from '../../../../shared/scan-notes';
import { Alert } from '../../components/Alert';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { capitalize, when } from '../../lib/format';
import { loadMarkdown, preloadWhenIdle } from '../../lib/page-chunks';
import { reasonOf } from '../../modals/shared';
import { apisStore, useApisStore } from '../../stores/useApisStore';
import { currentAuth } from '../../stores/useAuthStore';
import { noticeStore } from '../../stores/useNoticeStore';
import { openedFindingStore, openedKey, useOpenedFindingStore } from '../../stores/useOpenedFindingStore';
import { scanCoverageStore, useScanCoverageStore } from '../../stores/useScanCoverageStore';
import { scanPageStore, useScanPageStore } from '../../stores/useScanPageStore';
import { scanStore, useScanStore } from '../../stores/useScanStore';
import { CompareView, type LostCoverage } from './CompareView';
import { CoverageView } from './CoverageView';
import { checkNamer, lostOperations, type CoverageFilter } from './coverage-view';
import { FindingDetail } from './FindingDetail';
import { FindingList, type FindingListHandle } from './FindingList';
import { LiveScanPanel } from './LiveScanPanel';
import { PaneSplitter, useListWidth } from './PaneSplitter';
import { LoginFailureActions } from './LoginFailureActions';
import { CodeText, withoutInlineAnswer } from '../../components/LoginAnswerQuote';
import { ReportDownloads, ScanAbout } from './ScanAbout';
import {
  compareFindings,
  facetCounts,
  filterFindings,
  groupRows,
  isFiltered,
  moveSelection,
  NO_FILTERS,
  prepareFindings,
  readFindingsAddress,
  TRIAGE_LABELS,
  writeFindingsAddress,
  triageExportFileName,
  type FindingFilters,
  type SelectionKey,
} from './findings-view';
import './scan-page.css';

type Tab = 'findings' | 'coverage' | 'compare' | 'about';

/** How long the filters and selection rest before the address is rewritten with them. */
const ADDRESS_DELAY_MS = 300;

const KEYS: Record<string, SelectionKey> = { ArrowDown: 'next', j: 'next', ArrowUp: 'previous', k: 'previous', Home: 'first', End: 'last' };

/** Typing in a field, or a dialog open: the page's keys stay out of the way. */
function keysBelongElsewhere(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('dialog[open]')) return true;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

function FilterSelect<T extends string>({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange(value: T): void;
  testId: string;
}): ReactElement {
  return (
    <label className="select-inline">
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value as T)} data-testid={testId}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export default function ScanPage(): ReactElement {
  const { scanId = '' } = useParams();
  const status = useScanPageStore((s) => s.status);
  const error = useScanPageStore((s) => s.error);
  const details = useScanPageStore((s) => s.details);
  const findings = useScanPageStore((s) => s.findings);
  const previous = useScanPageStore((s) => s.previous);
  const loadedId = useScanPageStore((s) => s.scanId);
  const apis = useApisStore((s) => s.apis);
  const apisStatus = useApisStore((s) => s.status);

  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const [tab, setTab] = useState<Tab>('findings');
  // A link names the filters and the open finding (issue 31): read once per scan, written as they change.
  const [filters, setFilters] = useState<FindingFilters>(() => readFindingsAddress(searchParams).filters);
  const [coverageFilter, setCoverageFilter] = useState<CoverageFilter>('all');
  const [coverageQuery, setCoverageQuery] = useState('');
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});
  const [selectedId, setSelectedId] = useState<string | null>(() => readFindingsAddress(searchParams).findingId);
  const [cancelling, setCancelling] = useState(false);
  const [listWidth, setListWidth] = useListWidth();
  const [exporting, setExporting] = useState(false);
  const [downloadingHar, setDownloadingHar] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const navigate = useNavigate();
  const listRef = useRef<FindingListHandle>(null);
  const triageRef = useRef<HTMLSelectElement>(null);
  // Typing stays immediate; the list follows as soon as React has a moment.
  const shownFilters = useDeferredValue(filters);

  const addressRef = useRef(location.search);
  addressRef.current = location.search;
  useEffect(() => {
    void scanPageStore.getState().load(scanId);
    const address = readFindingsAddress(new URLSearchParams(addressRef.current));
    setFilters(address.filters);
    setSelectedId(address.findingId);
    setTab('findings');
    setCoverageFilter('all');
    setCoverageQuery('');
  }, [scanId]);

  useEffect(() => {
    if (apisStore.getState().status === 'idle') void apisStore.getState().load();
  }, []);


  const ready = status === 'ready' && loadedId === scanId && !!details;
  // The detail pane's Markdown renderer, once the scan's rows are there: never in the way of the first ones.
  useEffect(() => (ready ? preloadWhenIdle(loadMarkdown) : undefined), [ready]);
  const api = details ? apis.find((a) => a.id === details.api_id) : undefined;

  // The address follows what the list shows and the open finding (replacing, not adding, history entries),
  // once the user pauses: rewriting it re-renders the routes, which typing and filtering need not wait for.
  useEffect(() => {
    if (!ready) return;
    const timer = setTimeout(() => {
      const next = writeFindingsAddress({ filters: shownFilters, findingId: selectedId });
      if (next !== addressRef.current.replace(/^\?/, '')) setSearchParams(next, { replace: true });
    }, ADDRESS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ready, shownFilters, selectedId, setSearchParams]);
  // Unknown permission (the API list has not answered) shows no triage controls.
  const canTriage = api?.permission === 'owner' || api?.permission === 'manage';
  const canScan = canTriage;
  const apiBusy = useScanStore((s) => (details ? !!s.running[details.api_id] : false));

  const prepared = useMemo(() => prepareFindings(findings), [findings]);
  const facets = useMemo(() => facetCounts(prepared), [prepared]);
  const filtered = useMemo(() => filterFindings(prepared, shownFilters), [prepared, shownFilters]);
  const rows = useMemo(() => groupRows(filtered), [filtered]);
  const byId = useMemo(() => new Map(findings.map((f) => [f.id, f])), [findings]);
  const compared = useMemo(
    () => (tab === 'compare' ? compareFindings(findings, details?.results.scan_info?.fixed) : null),
    [tab, findings, details],
  );

  // The first finding is selected once the scan has loaded.
  useEffect(() => {
    if (!ready || selectedId !== null) return;
    const first = rows.find((r) => r.kind === 'finding');
    if (first) setSelectedId(first.key);
  }, [ready, rows, selectedId]);

  const selected = selectedId ? (byId.get(selectedId) ?? null) : null;
  // The detail pane's long texts: the whole finding, read once it is selected.
  const opened = useOpenedFindingStore((s) => (selected ? s.byKey[openedKey(scanId, selected.id)] : undefined));
  useEffect(() => {
    if (ready && selectedId) void openedFindingStore.getState().open(scanId, selectedId);
  }, [ready, scanId, selectedId]);

  // Coverage is kept when a scan ends: read once the scan has ended and a tab shows it.
  const ended = ready && !!details && details.status !== 'running';
  const previousId = previous?.id ?? null;
  const coverageEntry = useScanCoverageStore((s) => s.byScan[scanId]);
  const previousCoverage = useScanCoverageStore((s) => (previousId ? s.byScan[previousId] : undefined));
  useEffect(() => {
    if (!ended || tab === 'findings') return;
    void scanCoverageStore.getState().load(scanId);
    if (tab === 'compare' && previousId) void scanCoverageStore.getState().load(previousId);
  }, [ended, tab, scanId, previousId]);
  const checkName = useMemo(() => checkNamer(findings, details?.results.scan_info?.skipped_checks ?? []), [findings, details]);
  const lost = useMemo<LostCoverage>(() => {
    if (!previousId || !ended) return { status: 'hidden' };
    if (coverageEntry?.status === 'error' || previousCoverage?.status === 'error') return { status: 'hidden' };
    if (coverageEntry?.status !== 'ready' || previousCoverage?.status !== 'ready') return { status: 'loading' };
    if (!coverageEntry.coverage || !previousCoverage.coverage) return { status: 'hidden' };
    return { status: 'ready', operations: lostOperations(previousCoverage.coverage.operations, coverageEntry.coverage.operations) };
  }, [previousId, ended, coverageEntry, previousCoverage]);

  const move = useCallback(
    (key: SelectionKey, focus?: boolean) => {
      const index = moveSelection(rows, selectedId, key);
      if (index === null) return;
      const row = rows[index]!;
      setSelectedId(row.key);
      listRef.current?.reveal(index, focus);
    },
    [rows, selectedId],
  );

  useEffect(() => {
    if (tab !== 'findings') return;
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || keysBelongElsewhere(e.target)) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      const inList = !!target?.closest('.finding-list');
      const onPage = !target || target === document.body || inList;
      const key = KEYS[e.key];
      if (key && onPage) {
        // Home and End scroll the page unless the list has focus.
        if ((key === 'first' || key === 'last') && !inList) return;
        e.preventDefault();
        move(key, inList);
        return;
      }
      if ((e.key === 't' || e.key === 'T') && triageRef.current) {
        e.preventDefault();
        triageRef.current.focus();
        triageRef.current.scrollIntoView({ block: 'nearest' });
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [tab, move]);

  const select = (id: string) => {
    setSelectedId(id);
  };

  const openFromCompare = (id: string) => {
    setFilters(NO_FILTERS);
    setSelectedId(id);
    setTab('findings');
  };

  // After a jump from the compare view the row is scrolled into view once the list has its rows.
  useEffect(() => {
    if (tab !== 'findings' || !selectedId) return;
    const index = rows.findIndex((r) => r.kind === 'finding' && r.key === selectedId);
    if (index >= 0) listRef.current?.reveal(index, false);
    // Only a tab change or new rows call for it; moving the selection reveals by itself.
  }, [tab, rows]);

  const tabs: { id: Tab; label: ReactNode }[] = [
    {
      id: 'findings',
      // One flex item: the tab spaces its children apart.
      label: (
        <span>
          Findings (<span data-testid="scan-total">{findings.length}</span>)
        </span>
      ),
    },
    { id: 'coverage', label: COVERAGE_MESSAGES.tab },
    { id: 'compare', label: 'Compare with previous scan' },
    { id: 'about', label: 'About this scan' },
  ];

  // ARIA tabs: arrows, Home and End move between tabs and select them (the selected one is the tab stop).
  const onTabKey = (e: ReactKeyboardEvent<HTMLButtonElement>, index: number) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    let next = index + delta;
    if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    else if (!delta) return;
    e.preventDefault();
    const target = tabs[(next + tabs.length) % tabs.length]!;
    setTab(target.id);
    tabRefs.current[target.id]?.focus();
  };

  const setFilter = <K extends keyof FindingFilters>(key: K, value: FindingFilters[K]) => setFilters((f) => ({ ...f, [key]: value }));

  const downloadTriage = async () => {
    const auth = currentAuth();
    if (!auth || !details || exporting) return;
    setExporting(true);
    try {
      const res = await exportTriage(auth, details.api_id);
      if (!res.ok || !res.data) {
        noticeStore.getState().show('error', `Could not export the triage: ${res.message || FALLBACK_MESSAGES.downloadReport}`);
        return;
      }
      const blob = new Blob([`${JSON.stringify(res.data, null, 2)}\n`], { type: 'application/json' });
      if (await saveBlob(blob, triageExportFileName(res.data.api.name || api?.name || 'API'))) {
        noticeStore.getState().show('success', `Triage exported: ${res.data.triage.length} ${res.data.triage.length === 1 ? 'mark' : 'marks'}.`);
      }
    } catch (err) {
      noticeStore.getState().show('error', `Could not export the triage: ${reasonOf(err, FALLBACK_MESSAGES.downloadReport)}`);
    } finally {
      setExporting(false);
    }
  };

  // The scan's traffic (issue 27): every request it sent, secrets redacted, for Burp, ZAP or the browser's DevTools.
  const downloadHar = async () => {
    const auth = currentAuth();
    if (!auth || !details || downloadingHar) return;
    setDownloadingHar(true);
    try {
      const res = await downloadTraffic(auth, details.scan_id);
      if (!res.ok) {
        noticeStore.getState().show('error', SCAN_TRAFFIC_MESSAGES.harFailed(res.message || SCAN_TRAFFIC_MESSAGES.harFallback));
        return;
      }
      const at = new Date(details.results.scan_info.completed_at ?? details.results.scan_info.started_at ?? Date.now());
      if (await saveBlob(res.blob, trafficFileName(api?.name || 'API', at))) noticeStore.getState().show('success', SCAN_TRAFFIC_MESSAGES.harDownloaded);
    } catch (err) {
      noticeStore.getState().show('error', SCAN_TRAFFIC_MESSAGES.harFailed(reasonOf(err, SCAN_TRAFFIC_MESSAGES.harFallback)));
    } finally {
      setDownloadingHar(false);
    }
  };

  const retry = async () => {
    if (!details || !api || retrying) return;
    setRetrying(true);
    try {
      const next = await scanStore.getState().retry(api, details.scan_id);
      if (next) navigate(`/scans/${next}`);
    } finally {
      setRetrying(false);
    }
  };

  // Cancel while it runs; Scan again with the same configuration and keys once it has ended.
  const cancel = async () => {
    const auth = currentAuth();
    if (!auth || !details || cancelling) return;
    setCancelling(true);
    try {
      const res = await cancelScan(auth, details.scan_id);
      if (!res.ok) noticeStore.getState().show('error', res.message || SCAN_MESSAGES.cancelFailed);
      else await scanPageStore.getState().load(details.scan_id);
    } catch (err) {
      noticeStore.getState().show('error', reasonOf(err, SCAN_MESSAGES.cancelFailed));
    } finally {
      setCancelling(false);
    }
  };

  const info = details?.results.scan_info;
  const running = details?.status === 'running';
  const stopped = details?.status === 'failed' || details?.status === 'cancelled';
  const setAside = facets.triage.false_positive + facets.triage.accepted_risk + facets.triage.fixed;
  const total = findings.length;
  // The About tab says how many problems the scan ran into, so they are not missed.
  const problemCount = useMemo(() => (info ? splitNotes(info.errors ?? [], info.problems).problems.length : 0), [info]);
  // The one count (shared/severity.ts): what the API card, History, the dashboard, the reports and Compare show for this scan.
  const vulnerabilities = useMemo(() => vulnerabilityCount(findings), [findings]);
  const vulnerabilityLevelCounts = useMemo(() => vulnerabilityLevels(findings), [findings]);
  const levelsText = SEVERITY_LEVELS.filter((l) => vulnerabilityLevelCounts[l] > 0)
    .map((l) => `${vulnerabilityLevelCounts[l]} ${l}`)
    .join(', ');

  return (
    <div className="scan-page" data-testid="scan-page">
      <div className="page-head scan-head">
        <div style={{ minWidth: 0 }}>
          <p className="scan-page-crumb small">
            <Link to="/manage-apis" data-testid="scan-back">
              <Icon name="arrowLeft" size={14} /> API Management
            </Link>
          </p>
          <h1>
            Scan results{' '}
            <span className="scan-head-api" data-testid="scan-api-name">
              {api?.name ?? '\u00a0'}
            </span>
          </h1>
        </div>
        {ready && (
          <div className="page-actions">
            {details && details.status !== 'running' && details.status !== 'created' && (
              <details className="menu" data-testid="reports-menu">
                <summary className="button button-secondary">
                  <Icon name="download" size={16} />
                  Reports
                </summary>
                <div className="menu-panel">
                  <ReportDownloads
                    apiName={api?.name || 'API'}
                    scanId={details.scan_id}
                    completedAt={details.results.scan_info.completed_at}
                    onResult={(kind, message) => noticeStore.getState().show(kind, message)}
                  />
                </div>
              </details>
            )}
            <button type="button" className="button button-secondary" onClick={() => void downloadTriage()} disabled={exporting} data-testid="export-triage">
              <Icon name="download" size={16} />
              {exporting ? 'Exporting...' : 'Export triage'}
            </button>
            {details && details.status !== 'running' && details.status !== 'created' && (
              <button type="button" className="button button-secondary" onClick={() => void downloadHar()} disabled={downloadingHar} data-testid="download-har">
                <Icon name="download" size={16} />
                {downloadingHar ? 'Downloading...' : 'Download traffic (HAR)'}
              </button>
            )}
            {canScan && running && (
              <button type="button" className="button button-secondary" onClick={() => void cancel()} disabled={cancelling} data-testid="scan-cancel">
                <Icon name="x" size={16} />
                {cancelling ? 'Cancelling...' : 'Cancel scan'}
              </button>
            )}
            {canScan && details?.status === 'completed' && (
              <button type="button" className="button button-primary" onClick={() => void retry()} disabled={retrying || apiBusy} data-testid="scan-again">
                <Icon name="play" size={16} />
                {retrying ? 'Starting...' : 'Scan again'}
              </button>
            )}
          </div>
        )}
      </div>

      {(status === 'loading' || (status === 'idle' && !error) || (status === 'ready' && loadedId !== scanId)) && (
        <div className="loading-block" data-testid="scan-loading">
          <Spinner label="Loading scan" />
        </div>
      )}
      {status === 'error' && (
        <Alert kind="error" testId="scan-error">
          {error}
        </Alert>
      )}

      {ready && info && (
        <>
          <dl className="report-facts scan-facts" data-testid="scan-facts">
            <div>
              <dt>{details.status === 'completed' ? 'Completed' : 'Status'}</dt>
              <dd>{details.status === 'completed' ? when(info.completed_at) : capitalize(details.status)}</dd>
            </div>
            <div>
              <dt>Security score</dt>
              <dd data-testid="scan-score">{info.score === null || info.score === undefined ? '—' : `${info.score} / 100`}</dd>
            </div>
            <div title="Findings that are not informational and not set aside in triage">
              <dt>Vulnerabilities</dt>
              <dd>
                <span data-testid="scan-vulnerabilities">{vulnerabilities}</span>
                {levelsText && (
                  <span className="muted" data-testid="scan-vulnerability-levels">
                    {' '}
                    ({levelsText})
                  </span>
                )}
              </dd>
            </div>
            <div>
              <dt>Set aside in triage</dt>
              <dd data-testid="scan-set-aside">{setAside}</dd>
            </div>
          </dl>
          {running && <LiveScanPanel info={info} />}
          {stopped && (
            <Alert kind={details.status === 'failed' ? 'error' : 'info'} testId="scan-failure">
              <div className="scan-failure">
                <span data-testid="scan-failure-reason">
                  {details.status === 'failed' ? 'The scan failed' : 'The scan was cancelled'}
                  {info.failure_reason ? (
                    <>
                      : <CodeText text={withoutInlineAnswer(info.failure_reason, info.login_failure?.answer)} />
                    </>
                  ) : (
                    '.'
                  )}
                </span>
                {/* Stopped at an identity's login (issue 31): the API's answer, and Retry offers to edit the identities first. */}
                {info.login_failure && api ? (
                  <LoginFailureActions
                    api={api}
                    scanId={details.scan_id}
                    failure={info.login_failure}
                    reason={info.failure_reason}
                    canScan={canScan}
                    busy={retrying || apiBusy}
                    onRetry={() => void retry()}
                    onStarted={(next) => navigate(`/scans/${next}`)}
                  />
                ) : canScan && (
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    onClick={() => void retry()}
                    disabled={retrying || apiBusy}
                    data-testid="scan-retry"
                  >
                    <Icon name="play" size={14} />
                    {retrying ? 'Starting...' : 'Retry'}
                  </button>
                )}
              </div>
            </Alert>
          )}

          <div className="tabs" role="tablist" aria-label="Scan views">
            {tabs.map((t, i) => (
              <button
                key={t.id}
                ref={(el) => {
                  tabRefs.current[t.id] = el;
                }}
                type="button"
                role="tab"
                id={`scan-tab-${t.id}`}
                className="tab"
                aria-selected={tab === t.id}
                aria-controls={`scan-panel-${t.id}`}
                tabIndex={tab === t.id ? 0 : -1}
                onClick={() => setTab(t.id)}
                onKeyDown={(e) => onTabKey(e, i)}
                data-testid={`scan-tab-${t.id}`}
              >
                {t.label}
                {t.id === 'about' && problemCount > 0 && (
                  <span className="tab-count" data-testid="scan-tab-about-problems">
                    {problemCount}
                    <span className="sr-only"> {problemCount === 1 ? 'problem' : 'problems'}</span>
                  </span>
                )}
              </button>
            ))}
          </div>

          {tab === 'findings' && (
            <div role="tabpanel" id="scan-panel-findings" aria-labelledby="scan-tab-findings" data-testid="findings-panel" data-shown-filters={JSON.stringify(shownFilters)}>
              <div className="scan-toolbar" role="search" aria-label="Filter findings">
                <label className="search-input">
                  <Icon name="search" size={18} />
                  <span className="sr-only">Search findings by name, method, path or operation</span>
                  <input
                    type="search"
                    placeholder="Search name, method, path or operation"
                    value={filters.query}
                    onChange={(e) => setFilter('query', e.target.value)}
                    data-testid="finding-search"
                  />
                </label>
                <FilterSelect
                  label="Severity"
                  value={filters.severity}
                  onChange={(v) => setFilter('severity', v)}
                  options={[{ value: 'all', label: 'All' }, ...SEVERITY_LEVELS.map((s) => ({ value: s, label: `${LEVEL_NAMES[s]} (${facets.severity[s]})` }))]}
                  testId="filter-severity"
                />
                <FilterSelect
                  label="Category"
                  value={filters.category}
                  onChange={(v) => setFilter('category', v)}
                  options={[{ value: 'all', label: 'All' }, ...facets.categories.map((c) => ({ value: c.id, label: `${c.label} (${c.count})` }))]}
                  testId="filter-category"
                />
                <FilterSelect
                  label="Confidence"
                  value={filters.confidence}
                  onChange={(v) => setFilter('confidence', v)}
                  options={[{ value: 'all', label: 'All' }, ...CONFIDENCES.map((c) => ({ value: c, label: `${capitalize(c)} (${facets.confidence[c]})` }))]}
                  testId="filter-confidence"
                />
                <FilterSelect
                  label="Trend"
                  value={filters.trend}
                  onChange={(v) => setFilter('trend', v)}
                  options={[
                    { value: 'all', label: 'All' },
                    { value: 'new', label: `New (${facets.trend.new})` },
                    { value: 'recurring', label: `Recurring (${facets.trend.recurring})` },
                  ]}
                  testId="filter-trend"
                />
                <FilterSelect
                  label="Triage"
                  value={filters.triage}
                  onChange={(v) => setFilter('triage', v)}
                  options={[{ value: 'all', label: 'All' }, ...TRIAGE_MARK_STATES.map((s) => ({ value: s, label: `${TRIAGE_LABELS[s]} (${facets.triage[s]})` }))]}
                  testId="filter-triage"
                />
              </div>
              <p className="scan-shown small muted" aria-live="polite">
                <span data-testid="findings-shown">
                  {filtered.length} of {total} {total === 1 ? 'finding' : 'findings'}
                </span>
                {isFiltered(filters) && (
                  <button type="button" className="button-link" onClick={() => setFilters(NO_FILTERS)} data-testid="clear-filters">
                    Clear filters
                  </button>
                )}
                <span className="scan-keys">
                  <kbd>↑</kbd> <kbd>↓</kbd> move · <kbd>T</kbd> triage
                </span>
              </p>

              {total === 0 && running ? (
                <div className="panel empty-state" data-testid="scan-empty-running">
                  <Icon name="search" size={36} />
                  <h3>No findings yet: they appear here as the scan finds them.</h3>
                </div>
              ) : total === 0 ? (
                <div className="panel empty-state" data-testid="scan-empty">
                  <Icon name={stopped ? 'search' : 'shieldCheck'} size={36} />
                  <h3>{stopped ? 'The scan stopped before it found anything.' : 'This scan found no vulnerabilities.'}</h3>
                </div>
              ) : (
                <div className="scan-layout" style={{ gridTemplateColumns: `minmax(0, ${listWidth}fr) 10px minmax(0, ${100 - listWidth}fr)` }}>
                  <div className="scan-list-pane" id="scan-list-pane">
                    {rows.length === 0 ? (
                      <p className="empty-state" data-testid="findings-none">
                        No findings match these filters.
                      </p>
                    ) : (
                      <FindingList ref={listRef} rows={rows} selectedId={selectedId} onSelect={select} />
                    )}
                  </div>
                  <PaneSplitter width={listWidth} onWidth={setListWidth} controls="scan-list-pane" />
                  <div className="scan-detail-pane">
                    {selected ? (
                      <FindingDetail
                        ref={triageRef}
                        finding={selected}
                        opened={opened}
                        onRetry={() => void openedFindingStore.getState().open(scanId, selected.id, true)}
                        canTriage={canTriage && apisStatus === 'ready'}
                      />
                    ) : (
                      <p className="empty-state">Select a finding to see its details.</p>
                    )}
                  </div>
                </div>
              )}
            </div>
          )}

          {tab === 'coverage' && (
            <div role="tabpanel" id="scan-panel-coverage" aria-labelledby="scan-tab-coverage" data-testid="coverage-panel">
              <CoverageView
                scanStatus={details.status}
                entry={coverageEntry}
                filter={coverageFilter}
                query={coverageQuery}
                onFilter={setCoverageFilter}
                onQuery={setCoverageQuery}
                onRetry={() => void scanCoverageStore.getState().load(scanId, true)}
                checkName={checkName}
              />
            </div>
          )}

          {tab === 'compare' && compared && (
            <div role="tabpanel" id="scan-panel-compare" aria-labelledby="scan-tab-compare">
              <CompareView
                compared={compared}
                previous={previous}
                lost={lost}
                onOpen={openFromCompare}
                onShowTrend={(trend) => {
                  setFilters({ ...NO_FILTERS, trend });
                  setSelectedId(null);
                  setTab('findings');
                }}
              />
            </div>
          )}

          {tab === 'about' && (
            <div role="tabpanel" id="scan-panel-about" aria-labelledby="scan-tab-about">
              <ScanAbout info={info} scanId={details.scan_id} />
            </div>
          )}
        </>
      )}
    </div>
  );
}
