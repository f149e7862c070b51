// API Management (spec sections 2, 4, 6): import, figures with the issues-only filter, search and sort,
// the API cards, and every modal of an API. The scan flow is New Scan -> Configure Scan -> "Next:
// Configure Flags" (creates the scan) -> Start Scan (starts it; useScanStore follows it).

import { useEffect, useMemo, useState, type ReactElement } from 'react';
import type { ApiSummary } from '../../../../shared/contract';
import { isLocalBaseUrl } from '../../../../shared/display';
import { API_MESSAGES, SCAN_MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/Alert';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { StatCard } from '../../components/StatCard';
import { ConfigureFlagsModal } from '../../modals/ConfigureFlagsModal';
import { ConfigureScanModal } from '../../modals/ConfigureScanModal';
import { EditApiModal } from '../../modals/EditApiModal';
import { EndpointsModal } from '../../modals/EndpointsModal';
import { ImportModal } from '../../modals/ImportModal';
import { ManageOwnerModal } from '../../modals/ManageOwnerModal';
import { ManageSharedModal } from '../../modals/ManageSharedModal';
import { ScanHistoryModal } from '../../modals/ScanHistoryModal';
import { ScheduleModal } from '../../modals/ScheduleModal';
import { ShareModal } from '../../modals/ShareModal';
import { apisStore, useApisStore } from '../../stores/useApisStore';
import { anyScanRunning, scanStore, useScanStore } from '../../stores/useScanStore';
import { ApiCard, type CardAction } from './ApiCard';

type SortKey = 'name' | 'lastScanned' | 'vulnerabilities';

export type ModalState =
  | { kind: 'import' }
  | { kind: 'endpoints'; api: ApiSummary }
  | { kind: 'configure-scan'; api: ApiSummary }
  | { kind: 'flags'; api: ApiSummary; scanId: string; profile: string }
  | { kind: 'history'; api: ApiSummary }
  | { kind: 'edit'; api: ApiSummary }
  | { kind: 'schedule'; api: ApiSummary }
  | { kind: 'share'; api: ApiSummary }
  | { kind: 'manage-owner'; api: ApiSummary }
  | { kind: 'manage-shared'; api: ApiSummary };

const lastScannedTime = (api: ApiSummary): number => {
  const t = api.lastScanned && api.lastScanned !== 'Never' ? new Date(api.lastScanned).getTime() : NaN;
  return Number.isNaN(t) ? -Infinity : t;
};

const SORTERS: Record<SortKey, (a: ApiSummary, b: ApiSummary) => number> = {
  name: (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }),
  // Most recent first; never scanned last.
  lastScanned: (a, b) => lastScannedTime(b) - lastScannedTime(a) || SORTERS.name(a, b),
  // Most vulnerabilities first.
  vulnerabilities: (a, b) => b.vulnerabilitiesFound - a.vulnerabilitiesFound || SORTERS.name(a, b),
};

export default function ManageApisPage(): ReactElement {
  const apis = useApisStore((s) => s.apis);
  const status = useApisStore((s) => s.status);
  const error = useApisStore((s) => s.error);
  const environment = useApisStore((s) => s.environment);
  const environmentError = useApisStore((s) => s.environmentError);
  const running = useScanStore((s) => s.running);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortKey>('name');
  const [issuesOnly, setIssuesOnly] = useState(false);
  const [modal, setModal] = useState<ModalState | null>(null);

  useEffect(() => {
    void apisStore.getState().load();
    if (!apisStore.getState().environment) void apisStore.getState().loadEnvironment();
  }, []);

  // Scans the server reports running (another tab, a schedule) are followed like our own.
  useEffect(() => {
    void scanStore.getState().resume(apis);
  }, [apis]);

  const visible = useMemo(() => {
    const q = search.trim().toLowerCase();
    return apis
      .filter((a) => (!q || a.name.toLowerCase().includes(q)) && (!issuesOnly || a.vulnerabilitiesFound > 0))
      .sort(SORTERS[sort]);
  }, [apis, search, sort, issuesOnly]);

  const activeCount = apis.filter((a) => a.status === 'Active').length;
  const issuesCount = apis.filter((a) => a.vulnerabilitiesFound > 0).length;
  const anyRunning = anyScanRunning(running, apis);

  /** Why New Scan is disabled for this API, or null (spec section 4). */
  const blockedReason = (api: ApiSummary): string | null => {
    if (isLocalBaseUrl(api.base_url) && !(environment?.localScans ?? false)) return SCAN_MESSAGES.localDisabled;
    if (anyRunning) return SCAN_MESSAGES.anotherInProgress;
    return null;
  };

  const onCardAction = (api: ApiSummary, action: CardAction) => {
    switch (action) {
      case 'new-scan':
        if (!blockedReason(api)) setModal({ kind: 'configure-scan', api });
        break;
      case 'endpoints':
        setModal({ kind: 'endpoints', api });
        break;
      case 'history':
        setModal({ kind: 'history', api });
        break;
      case 'manage':
        setModal(api.permission === 'owner' ? { kind: 'manage-owner', api } : { kind: 'manage-shared', api });
        break;
      case 'cancel-scan':
        void scanStore.getState().cancel(api.id);
        break;
    }
  };

  const close = () => setModal(null);
  const reload = () => void apisStore.getState().load();

  return (
    <div data-testid="manage-apis-page">
      <div className="page-head">
        <div>
          <h1>API Management</h1>
          <p>Import APIs, scan them against the OWASP API Security Top 10 and share them with your team.</p>
        </div>
        <div className="page-actions">
          <button type="button" className="button button-primary" onClick={() => setModal({ kind: 'import' })} data-testid="import-button">
            <Icon name="upload" size={18} />
            Import API
          </button>
        </div>
      </div>

      {error && (
        <Alert kind="error" testId="apis-error">
          {error}
        </Alert>
      )}
      {environmentError && (
        <Alert kind="error" testId="environment-error">
          {environmentError}
        </Alert>
      )}

      <div className="grid-3" style={{ marginBottom: 28 }}>
        <StatCard label="Total APIs" value={apis.length} icon="layers" testId="stat-total" />
        <StatCard label="Active APIs" value={activeCount} icon="activity" tone="accent" testId="stat-active" />
        <StatCard
          label="APIs with Issues"
          value={issuesCount}
          icon="alert"
          tone="danger"
          hint={issuesOnly ? 'Showing only these · click to show all' : 'Click to show only these'}
          pressed={issuesOnly}
          onToggle={() => setIssuesOnly((v) => !v)}
          testId="stat-issues"
        />
      </div>

      <section aria-labelledby="my-apis-title">
        <div className="panel-head">
          <h2 id="my-apis-title" style={{ fontSize: '1.3rem' }}>
            My APIs
          </h2>
          <span className="muted small" data-testid="apis-shown">
            {visible.length} of {apis.length} shown
          </span>
        </div>
        <div className="toolbar">
          <label className="search-input">
            <Icon name="search" size={18} />
            <span className="sr-only">Search APIs by name</span>
            <input type="search" placeholder="Search APIs by name" value={search} onChange={(e) => setSearch(e.target.value)} data-testid="api-search" />
          </label>
          <label className="select-inline">
            Sort by
            <select value={sort} onChange={(e) => setSort(e.target.value as SortKey)} data-testid="api-sort">
              <option value="name">Name</option>
              <option value="lastScanned">Last scanned</option>
              <option value="vulnerabilities">Vulnerabilities</option>
            </select>
          </label>
        </div>

        {status === 'loading' || (status === 'idle' && apis.length === 0) ? (
          <div className="loading-block">
            <Spinner label="Loading APIs" />
          </div>
        ) : visible.length === 0 ? (
          <div className="panel empty-state" data-testid="apis-empty">
            <Icon name="search" size={36} />
            <h3>{API_MESSAGES.noApisMatch}</h3>
            {apis.length === 0 ? (
              <>
                <p>You have no APIs yet. Import an OpenAPI, Swagger or Postman file to get started.</p>
                <button type="button" className="button button-primary" onClick={() => setModal({ kind: 'import' })}>
                  <Icon name="upload" size={18} />
                  Import API
                </button>
              </>
            ) : (
              <p>Try another search or show all APIs.</p>
            )}
          </div>
        ) : (
          <div className="api-grid" data-testid="api-list">
            {visible.map((api) => (
              <ApiCard key={api.id} api={api} running={running[api.id]} blockedReason={blockedReason(api)} onAction={(a) => onCardAction(api, a)} />
            ))}
          </div>
        )}
      </section>

      {modal?.kind === 'import' && <ImportModal onClose={close} onImported={reload} />}
      {modal?.kind === 'endpoints' && <EndpointsModal api={modal.api} onClose={close} />}
      {modal?.kind === 'configure-scan' && (
        <ConfigureScanModal
          api={modal.api}
          onClose={close}
          onCreated={(scanId, profile) => setModal({ kind: 'flags', api: modal.api, scanId, profile })}
        />
      )}
      {modal?.kind === 'flags' && <ConfigureFlagsModal api={modal.api} scanId={modal.scanId} profile={modal.profile} onClose={close} />}
      {modal?.kind === 'history' && <ScanHistoryModal api={modal.api} onClose={close} />}
      {modal?.kind === 'edit' && <EditApiModal api={modal.api} onClose={close} onSaved={reload} />}
      {modal?.kind === 'schedule' && <ScheduleModal api={modal.api} onClose={close} />}
      {modal?.kind === 'share' && <ShareModal api={modal.api} onClose={close} />}
      {modal?.kind === 'manage-owner' && (
        <ManageOwnerModal
          api={modal.api}
          onClose={close}
          onOpen={(kind) => setModal({ kind, api: modal.api })}
          onDeleted={() => {
            close();
            reload();
          }}
        />
      )}
      {modal?.kind === 'manage-shared' && (
        <ManageSharedModal
          api={modal.api}
          blockedReason={blockedReason(modal.api)}
          onClose={close}
          onOpen={(kind) => {
            if (kind === 'configure-scan' && blockedReason(modal.api)) return;
            setModal({ kind, api: modal.api });
          }}
          onLeft={() => {
            close();
            reload();
          }}
        />
      )}
    </div>
  );
}
