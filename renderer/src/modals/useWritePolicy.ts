// The server's write policy of an API (GET through scanWritePolicy): its operations that look like
// creates, changes or wipes, and whether the API is on this machine or a private network. Asked again
// whenever `refreshKey` changes (the skipped endpoints: a skipped route is not called).

import { useEffect, useState } from 'react';
import type { WritePolicyData } from '../../../shared/write-policy';
import { scanWritePolicy } from '../api/scans';
import { currentAuth } from '../stores/useAuthStore';

export function useWritePolicy(apiId: string, refreshKey = ''): WritePolicyData | null {
  const [policy, setPolicy] = useState<WritePolicyData | null>(null);
  useEffect(() => {
    const auth = currentAuth();
    if (!auth) return;
    const controller = new AbortController();
    scanWritePolicy(auth, apiId, controller.signal)
      .then((res) => res.ok && setPolicy(res.data))
      .catch(() => undefined);
    return () => controller.abort();
  }, [apiId, refreshKey]);
  return policy;
}
