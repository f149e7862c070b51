// Endpoints of an API (spec section 2): method, path, summary and the checks each one carries; a GraphQL
// operation by its name and arguments.

import type { ReactElement } from 'react';
import { FLAG_OWASP, FLAGS, PAGE_SIZES, type Flag } from '../../../shared/constants';
import type { ApiSummary, Endpoint } from '../../../shared/contract';
import { API_MESSAGES } from '../../../shared/messages';
import { EndpointSearch } from '../components/EndpointSearch';
import { LoadStatus } from '../components/LoadStatus';
import { Modal } from '../components/Modal';
import { EndpointTitle, endpointSummary, GraphqlArguments } from './graphql-parts';
import { formatLabel } from './import-formats';
import { Pager } from './shared';
import { useEndpoints } from './useEndpoints';

export function flagTitle(flag: Flag): string {
  return flag === 'SKIP' ? 'Skip: no requests are sent to this endpoint' : `${FLAG_OWASP[flag].id} ${FLAG_OWASP[flag].title}`;
}

/** "12 endpoints", or "12 operations" for a GraphQL API. */
function countLabel(endpoints: Endpoint[]): string {
  const n = endpoints.length;
  const word = endpoints.every((e) => e.graphql) ? 'operation' : 'endpoint';
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function EndpointsModal({ api, onClose }: { api: ApiSummary; onClose(): void }): ReactElement {
  const { load, endpoints, search, setSearch, setPage, matching, view } = useEndpoints(api.id);

  return (
    <Modal
      title="Endpoints"
      subtitle={api.source_format ? `${api.name} · ${formatLabel(api.source_format)}` : api.name}
      onClose={onClose}
      wide
      testId="endpoints-modal"
      footer={
        <button type="button" className="button button-primary" onClick={onClose}>
          Close
        </button>
      }
    >
      <LoadStatus load={load} label="Loading endpoints" errorTestId="endpoints-error" />
      {load.kind === 'ready' &&
        (endpoints.length === 0 ? (
          <p className="empty-state" data-testid="endpoints-empty">
            {API_MESSAGES.noEndpoints}
          </p>
        ) : (
          <>
            <div className="toolbar">
              <EndpointSearch value={search} onChange={setSearch} testId="endpoints-search" />
              <span className="muted small" data-testid="endpoints-count">
                {countLabel(endpoints)}
              </span>
            </div>
            {matching.length === 0 ? (
              <p className="empty-state" data-testid="endpoints-no-match">
                {API_MESSAGES.noEndpointsMatch}
              </p>
            ) : (
              <ul className="endpoint-list" data-testid="endpoint-list">
                {view.rows.map((e) => (
                  <li key={e.id} data-testid="endpoint-row" className={e.flags.includes('SKIP') ? 'is-skipped' : undefined}>
                    <EndpointTitle endpoint={e} />
                    {endpointSummary(e) && <p className="endpoint-summary">{endpointSummary(e)}</p>}
                    {e.graphql && <GraphqlArguments parameters={e.parameters} />}
                    <div className="flag-chips" aria-label="Checks">
                      {e.flags.length === 0 ? (
                        <span className="muted small">No checks</span>
                      ) : (
                        FLAGS.filter((f) => e.flags.includes(f)).map((f) => (
                          <span key={f} className={`flag-chip${f === 'SKIP' ? ' flag-skip' : ''}`} title={flagTitle(f)}>
                            {f}
                          </span>
                        ))
                      )}
                    </div>
                  </li>
                ))}
              </ul>
            )}
            <Pager page={view.page} pageCount={view.pageCount} total={matching.length} pageSize={PAGE_SIZES.flagsModal} onPage={setPage} label="Endpoints" />
          </>
        ))}
    </Modal>
  );
}
