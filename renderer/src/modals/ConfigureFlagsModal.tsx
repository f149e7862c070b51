// Configure Flags (spec sections 4, 5, 9): 20 endpoints per page, search by method or path, one toggle
// per check and SKIP, saved as clicked (rolled back when the server refuses), "skip all" and one flag
// switched for every (matching) endpoint in one call, the flags' names, and Start Scan, which starts
// the scan created by Configure Scan; above them, the routes that reset or wipe data this scan will call
// on a local API (issue 31, item 6), whichever way the scan was configured (by hand or "as last time").

import { useRef, useState, type ReactElement } from 'react';
import { FLAG_OWASP, FLAGS, PAGE_SIZES, type Flag } from '../../../shared/constants';
import type { ApiSummary, Endpoint } from '../../../shared/contract';
import { graphqlOperationName } from '../../../shared/display';
import { API_MESSAGES, SCAN_MESSAGES } from '../../../shared/messages';
import { WRITE_POLICY_TEXT } from '../../../shared/write-policy';
import { setFlag, setFlagForMany } from '../api/apis';
import { Alert } from '../components/Alert';
import { EndpointSearch } from '../components/EndpointSearch';
import { Icon } from '../components/Icon';
import { LoadStatus } from '../components/LoadStatus';
import { Modal } from '../components/Modal';
import { Spinner } from '../components/Spinner';
import { useTransient } from '../hooks/useTransient';
import { currentAuth } from '../stores/useAuthStore';
import { scanStore } from '../stores/useScanStore';
import { flagTitle } from './EndpointsModal';
import { EndpointTitle, endpointSummary, GraphqlArguments } from './graphql-parts';
import { MessageLine, Pager, reasonOf } from './shared';
import { useEndpoints } from './useEndpoints';
import { useLocalWipes } from './useLocalWipes';

/** "BOLA · API1 Broken Object Level Authorization", "SKIP · no requests". */
export function flagName(flag: Flag): string {
  return flag === 'SKIP' ? 'SKIP · send no requests to the endpoint' : `${flag} · ${FLAG_OWASP[flag].id.replace(':2023', '')} ${FLAG_OWASP[flag].title}`;
}

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
  const [bulk, setBulk] = useState<{ total: number; flag: Flag; on: boolean } | null>(null);
  const [bulkFlag, setBulkFlag] = useState<Flag>('SKIP');
  const [starting, setStarting] = useState(false);
  const { message, show } = useTransient();

  const skippedIds = endpoints.filter((e) => e.flags.includes('SKIP')).map((e) => e.id);
  const skipped = skippedIds.length;
  // Asked again once a change of SKIP is saved (not while it is on its way: the server would not know it yet).
  const settled = useRef('');
  if (load.kind === 'ready' && pending.size === 0 && !bulk) settled.current = skippedIds.join(',');
  const wipes = useLocalWipes(api.id, scanId, settled.current);
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

  /**
   * One flag on or off in one call: for every endpoint ("Skip all endpoints"), or for the ones the
   * search matches (the bulk switch; all of them without a search).
   */
  const switchForAll = async (flag: Flag, on: boolean, only: 'all' | 'matching') => {
    const auth = currentAuth();
    if (!auth) return;
    const scope = only === 'matching' && search.trim() ? matching : endpoints;
    const todo = scope.filter((e) => e.flags.includes(flag) !== on);
    if (todo.length === 0) {
      if (flag === 'SKIP' && on) show('success', API_MESSAGES.allSkipped);
      return;
    }
    setBulk({ total: todo.length, flag, on });
    let failure: string | null = null;
    try {
      const res = await setFlagForMany(auth, api.id, flag, on, scope.length === endpoints.length ? undefined : todo.map((e) => e.id));
      if (!res.ok) failure = res.message || 'Request failed';
    } catch (err) {
      failure = reasonOf(err, 'Request failed');
    }
    setBulk(null);
    if (failure !== null) {
      show('error', API_MESSAGES.allFlagsError(failure));
      return;
    }
    const changed = new Set(todo.map((e) => e.id));
    setEndpoints((list) => list.map((e) => (changed.has(e.id) ? withFlag(e, flag, on) : e)));
    show('success', flag === 'SKIP' && on && scope.length === endpoints.length ? API_MESSAGES.allSkipped : `${flagName(flag).split(' · ')[0]} ${on ? 'on' : 'off'} for ${todo.length} endpoint${todo.length === 1 ? '' : 's'}.`);
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
      {wipes.length > 0 && (
        <Alert kind="error" testId="start-wipe-notice">
          {WRITE_POLICY_TEXT.localWipeCalled(wipes)}
        </Alert>
      )}
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
              <button type="button" className="button button-secondary" onClick={() => void switchForAll('SKIP', true, 'all')} disabled={busy} data-testid="skip-all">
                <Icon name="x" size={16} />
                Skip all endpoints
              </button>
            </div>
            <div className="toolbar flag-bulk" role="group" aria-label="Switch one check for many endpoints">
              <label className="small" htmlFor="bulk-flag">
                {search.trim() ? `For the ${matching.length} matching endpoints:` : 'For all endpoints:'}
              </label>
              <select id="bulk-flag" value={bulkFlag} onChange={(e) => setBulkFlag(e.target.value as Flag)} disabled={busy} data-testid="bulk-flag">
                {FLAGS.map((f) => (
                  <option key={f} value={f}>
                    {flagName(f)}
                  </option>
                ))}
              </select>
              <button type="button" className="button button-secondary button-small" onClick={() => void switchForAll(bulkFlag, true, 'matching')} disabled={busy} data-testid="bulk-on">
                Turn on
              </button>
              <button type="button" className="button button-secondary button-small" onClick={() => void switchForAll(bulkFlag, false, 'matching')} disabled={busy} data-testid="bulk-off">
                Turn off
              </button>
            </div>
            {bulk && (
              <p className="progress-label" data-testid="bulk-progress">
                <Spinner label="Updating flags" />
                <span>
                  {bulk.flag === 'SKIP' && bulk.on ? 'Marking endpoints to skip…' : `Turning ${bulk.flag} ${bulk.on ? 'on' : 'off'}…`} ({bulk.total} endpoints)
                </span>
              </p>
            )}
            <details className="flag-legend" data-testid="flag-legend">
              <summary>What the flags mean</summary>
              <ul>
                {FLAGS.map((f) => (
                  <li key={f}>
                    <strong>{f}</strong> {flagName(f).split(' · ')[1]}
                  </li>
                ))}
              </ul>
            </details>
            {matching.length === 0 ? (
              <p className="empty-state" data-testid="flags-no-match">
                {API_MESSAGES.noEndpointsMatch}
              </p>
            ) : (
              <ul className="endpoint-list" data-testid="flags-list">
                {view.rows.map((e) => {
                  const label = e.graphql ? graphqlOperationName(e.graphql) : `${e.method.toUpperCase()} ${e.path}`;
                  return (
                    <li key={e.id} data-testid="flags-row" data-endpoint={label} className={e.flags.includes('SKIP') ? 'is-skipped' : undefined}>
                      <EndpointTitle endpoint={e} />
                      {endpointSummary(e) && <p className="endpoint-summary">{endpointSummary(e)}</p>}
                      {e.graphql && <GraphqlArguments parameters={e.parameters} />}
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
