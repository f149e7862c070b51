// Loads an API's endpoints for the Endpoints and Configure Flags dialogs, with the search and the page
// both dialogs browse them by.

import { useEffect, useState } from 'react';
import { PAGE_SIZES } from '../../../shared/constants';
import type { Endpoint } from '../../../shared/contract';
import { FALLBACK_MESSAGES } from '../../../shared/messages';
import { matchesEndpointSearch } from '../../../shared/validation';
import { listEndpoints } from '../api/apis';
import type { Loadable } from '../components/LoadStatus';
import { paginate } from '../lib/scans';
import { currentAuth } from '../stores/useAuthStore';
import { reasonOf } from './shared';

export type EndpointsLoad = Loadable;

export function useEndpoints(apiId: string): {
  load: EndpointsLoad;
  endpoints: Endpoint[];
  setEndpoints: React.Dispatch<React.SetStateAction<Endpoint[]>>;
  search: string;
  /** A new search starts at the first page. */
  setSearch(value: string): void;
  setPage(page: number): void;
  /** The endpoints the search matches, and the page of them on show. */
  matching: Endpoint[];
  view: ReturnType<typeof paginate<Endpoint>>;
} {
  const [load, setLoad] = useState<EndpointsLoad>({ kind: 'loading' });
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const [search, setSearchText] = useState('');
  const [page, setPage] = useState(0);
  useEffect(() => {
    const auth = currentAuth();
    if (!auth) return;
    const controller = new AbortController();
    listEndpoints(auth, apiId, controller.signal)
      .then((res) => {
        if (res.ok && Array.isArray(res.data?.endpoints)) {
          setEndpoints(res.data.endpoints);
          setLoad({ kind: 'ready' });
        } else setLoad({ kind: 'error', message: res.message || FALLBACK_MESSAGES.fetchEndpoints });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setLoad({ kind: 'error', message: reasonOf(err, FALLBACK_MESSAGES.fetchEndpoints) });
      });
    return () => controller.abort();
  }, [apiId]);
  const matching = endpoints.filter((e) => matchesEndpointSearch(e, search));
  const view = paginate(matching, page, PAGE_SIZES.flagsModal);
  const setSearch = (value: string) => {
    setSearchText(value);
    setPage(0);
  };
  return { load, endpoints, setEndpoints, search, setSearch, setPage, matching, view };
}
