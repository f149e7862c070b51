// Loads an API's endpoints for the Endpoints and Configure Flags dialogs.

import { useEffect, useState } from 'react';
import type { Endpoint } from '../../../shared/contract';
import { FALLBACK_MESSAGES } from '../../../shared/messages';
import { listEndpoints } from '../api/apis';
import type { Loadable } from '../components/LoadStatus';
import { currentAuth } from '../stores/useAuthStore';
import { reasonOf } from './shared';

export type EndpointsLoad = Loadable;

export function useEndpoints(apiId: string): {
  load: EndpointsLoad;
  endpoints: Endpoint[];
  setEndpoints: React.Dispatch<React.SetStateAction<Endpoint[]>>;
} {
  const [load, setLoad] = useState<EndpointsLoad>({ kind: 'loading' });
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
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
  return { load, endpoints, setEndpoints };
}
