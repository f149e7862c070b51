// Configure Flags (spec sections 4, 5, 9): 20 endpoints per page, search by method or path, one toggle
// per check and SKIP, saved as clicked (rolled back when the server refuses), a bulk "skip all", and
// Start Scan, which starts the scan created by Configure Scan.

import { useState, type ReactElement } from 'react';
import { FLAGS, PAGE_SIZES, type Flag } from '../../../shared/constants';
import type { ApiSummary, Endpoint } from '../../../shared/contract';
import { API_MESSAGES, SCAN_MESSAGES } from '../../../shared/messages';
import { setFlag } from '../api/apis';
import { Alert } from '../components/Alert';
import { EndpointSearch } from '../components/EndpointSearch';
import { Icon } from '../components/Icon';
import { LoadStatus } from '../components/LoadStatus';
import { Modal } from '../components/Modal';
import { ProgressBar } from '../components/ProgressBar';
import { useTransient } from '../hooks/useTransient';
import { currentAuth } from '../stores/useAuthStore';
import { scanStore } from '../stores/useScanStore';
import { flagTitle } from './EndpointsModal';
import { MessageLine, MethodBadge, Pager, reasonOf } from './shared';
import { useEndpoints } from './useEndpoints';

const BULK_CONCURRENCY = 6;

const withFlag = (e: Endpoint, flag: Flag, on: boolean): Endpoint => ({
  ...e,
  flags: on ? (e.flags.includes(flag) ? e.flags : [...e.flags, flag]) : e.flags.filter((f) => f !== flag),
});

export function ConfigureFlagsModal({
  api,
  scanId,
  profile,
  onClose,
}: {
  api: ApiSummary;
  scanId: string;
  profile: string;
  onClose(): void;
}): ReactElement {
  const { load, endpoints, setEndpoints, search, setSearch, setPage, matching, view } = useEndpoints(api.id);
  const [pending, setPending] = useState<Set<string>>(new Set());
  const [bulk, setBulk] = useState<{ done: number; total: number } | null>(null);
  const [starting, setStarting] = useState(false);
  const { message, show } = useTransient();

  const skipped = endpoints.filter((e) => e.flags.includes('SKIP')).length;
  const busy = !!bulk || starting;

  const replace = (id: string, update: (e: Endpoint) => Endpoint) =>
    setEndpoints((list) => list.map((e) => (e.id === id ? update(e) : e)));

  const toggle = async (endpoint: Endpoint, flag: Flag) => {
    const auth = currentAuth();
    const key = `${endpoint.id}:${flag}`;
    if (!auth || pending.has(key)) return;
    const on = !endpoint.flags.includes(flag);
    // Shown at once; put back if the server refuses.
    replace(endpoint.id, (e) => withFlag(e, flag, on));
    setPending((p) => new Set(p).add(key));
    let failure: string | null = null;
    try {
      const res = await setFlag(auth, api.id, endpoint.id, flag, on);
      if (!res.ok) failure = res.message || 'Request failed';
      else if (res.data?.endpoint) replace(endpoint.id, () => res.data!.endpoint);
    } catch (err) {
      failure = reasonOf(err, 'Request failed');
    }
    if (failure !== null) {
      replace(endpoint.id, (e) => withFlag(e, flag, !on));
      show('error', API_MESSAGES.flagError(failure));
    }
    setPending((p) => {
      const next = new Set(p);
      next.delete(key);
      return next;
    });
  };

  const skipAll = async () => {
    const auth = currentAuth();
    if (!auth) return;
    const todo = endpoints.filter((e) => !e.flags.includes('SKIP'));
    if (todo.length === 0) {
      show('success', API_MESSAGES.allSkipped);
      return;
    }
    let done = 0;
    let failure: string | null = null;
    setBulk({ done, total: todo.length });
    const queue = [...todo];
    const worker = async () => {
      for (let e = queue.shift(); e && failure === null; e = queue.shift()) {
        try {
          const res = await setFlag(auth, api.id, e.id, 'SKIP', true);
          if (!res.ok) failure = res.message || 'Request failed';
          else replace(e.id, (cur) => (res.data?.endpoint ? res.data.endpoint : withFlag(cur, 'SKIP', true)));
        } catch (err) {
          failure = reasonOf(err, 'Request failed');
        }
        done += 1;
        setBulk({ done, total: todo.length });
      }
    };
    await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, todo.length) }, worker));
    setBulk(null);
    if (failure !== null) show('error', API_MESSAGES.allFlagsError(failure));
    else show('success', API_MESSAGES.allSkipped);
  };

  const start = async () => {
    setStarting(true);
    // The store marks the API running, starts it and reports a failure itself.
    await scanStore.getState().start(api, scanId, profile);
    onClose();
  };

  return (
    <Modal
      title="Configure Flags"
      subtitle={`${api.name} · choose the checks each endpoint gets`}
      onClose={onClose}
      wide
      busy={busy}
      testId="flags-modal"
      footer={
        <>
          <span className="spacer muted small" data-testid="flags-summary">
            {load.kind === 'ready' ? `${endpoints.length} endpoints · ${skipped} skipped` : ''}
          </span>
          <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => void start()}
            disabled={busy || load.kind !== 'ready' || pending.size > 0}
            data-testid="start-scan"
          >
            <Icon name="play" size={16} />
            {starting ? 'Starting...' : 'Start Scan'}
          </button>
        </>
      }
    >
      <MessageLine message={message} testId="flags-message" />
      <LoadStatus load={load} label="Loading endpoints" errorTestId="flags-error" />
      {load.kind === 'ready' &&
        (endpoints.length === 0 ? (
          <p className="empty-state">{API_MESSAGES.noEndpoints}</p>
        ) : (
          <>
            <Alert kind="info" testId="demo-hint">
              {SCAN_MESSAGES.demoHint}
            </Alert>
            <div className="toolbar">
              <EndpointSearch value={search} onChange={setSearch} testId="flags-search" />
              <button type="button" className="button button-secondary" onClick={() => void skipAll()} disabled={busy} data-testid="skip-all">
                <Icon name="x" size={16} />
                Skip all endpoints
              </button>
            </div>
            {bulk && (
              <div style={{ marginBottom: 14 }}>
                <ProgressBar done={bulk.done} total={bulk.total} label="Marking endpoints to skip" />
                <div className="progress-label">
                  <span>Marking endpoints to skip…</span>
                  <span>
                    {bulk.done}/{bulk.total}
                  </span>
                </div>
              </div>
            )}
            {matching.length === 0 ? (
              <p className="empty-state" data-testid="flags-no-match">
                {API_MESSAGES.noEndpointsMatch}
              </p>
            ) : (
              <ul className="endpoint-list" data-testid="flags-list">
                {view.rows.map((e) => {
                  const label = `${e.method.toUpperCase()} ${e.path}`;
                  return (
                    <li key={e.id} data-testid="flags-row" data-endpoint={label} className={e.flags.includes('SKIP') ? 'is-skipped' : undefined}>
                      <div className="endpoint-line">
                        <MethodBadge method={e.method} />
                        <span className="mono">{e.path}</span>
                      </div>
                      {e.summary && <p className="endpoint-summary">{e.summary}</p>}
                      <div className="flag-chips" role="group" aria-label={`Checks for ${label}`}>
                        {FLAGS.map((f) => {
                          const on = e.flags.includes(f);
                          return (
                            <button
                              key={f}
                              type="button"
                              className={`flag-chip${f === 'SKIP' ? ' flag-skip' : ''}`}
                              aria-pressed={on}
                              title={flagTitle(f)}
                              onClick={() => void toggle(e, f)}
                              disabled={busy || pending.has(`${e.id}:${f}`)}
                              data-testid={`flag-${f}`}
                            >
                              {on && <Icon name="check" size={12} />}
                              {f}
                            </button>
                          );
                        })}
                      </div>
                    </li>
                  );
                })}
              </ul>
            )}
            <Pager page={view.page} pageCount={view.pageCount} total={matching.length} pageSize={PAGE_SIZES.flagsModal} onPage={setPage} label="Endpoints" />
          </>
        ))}
    </Modal>
  );
}
