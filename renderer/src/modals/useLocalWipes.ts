// What the Start step of Configure Scan must say before a scan starts (issue 31, item 6): the routes
// that reset or wipe data which this scan will call on an API on this machine or a private network.
// The scan's own policy (writes to existing objects, the operations allowed) comes from the created
// scan; what looks like a wipe and whether the API is local from the server's write policy, asked again
// whenever the skipped endpoints change (a skipped route is not called).

import { useEffect, useState } from 'react';
import type { WritePolicyData } from '../../../shared/write-policy';
import { scanBrief } from '../api/scans';
import { currentAuth } from '../stores/useAuthStore';
import { useWritePolicy } from './useWritePolicy';

/** The wipe routes a scan with this policy will call on a local API ("GET /maintenance/reset"), in the server's order. */
export function wipesCalled(policy: WritePolicyData | null, scan: { writes?: string; destructive?: string[] } | null): string[] {
  if (!policy?.local || scan?.writes !== 'existing') return [];
  const allowed = new Set(scan.destructive ?? []);
  return policy.operations.filter((o) => o.kind === 'wipe' && allowed.has(o.operation)).map((o) => o.operation);
}

export function useLocalWipes(apiId: string, scanId: string, skippedKey: string): string[] {
  const [scan, setScan] = useState<{ writes?: string; destructive?: string[] } | null>(null);
  const policy = useWritePolicy(apiId, skippedKey);

  useEffect(() => {
    const auth = currentAuth();
    if (!auth) return;
    const controller = new AbortController();
    // The brief: only the scan's information is read here, never its findings.
    scanBrief(auth, scanId, controller.signal)
      .then((res) => res.ok && setScan(res.data.results.scan_info))
      .catch(() => undefined);
    return () => controller.abort();
  }, [scanId]);

  return wipesCalled(policy, scan);
}
