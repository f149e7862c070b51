// /apis/:apiId/latest-scan: the API card's "Latest scan" link, which knows the API but not its scans.
// Opens the scan running now (its live page), else the newest completed one, in place of this address.

import { useEffect, useState, type ReactElement } from 'react';
import { Link, Navigate, useParams } from 'react-router-dom';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../../shared/messages';
import { listScans } from '../../api/scans';
import { Alert } from '../../components/Alert';
import { Spinner } from '../../components/Spinner';
import { scanToOpen } from '../../lib/scans';
import { reasonOf } from '../../modals/shared';
import { currentAuth } from '../../stores/useAuthStore';

type State = { kind: 'loading' } | { kind: 'found'; scanId: string } | { kind: 'none'; message: string };

export default function LatestScanRedirect(): ReactElement {
  const { apiId = '' } = useParams();
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const auth = currentAuth();
    if (!auth) return;
    const controller = new AbortController();
    listScans(auth, apiId, controller.signal)
      .then((res) => {
        if (!res.ok || !Array.isArray(res.data?.scans)) {
          setState({ kind: 'none', message: res.message || FALLBACK_MESSAGES.fetchScanList });
          return;
        }
        const newest = scanToOpen(res.data.scans);
        setState(newest ? { kind: 'found', scanId: newest.id } : { kind: 'none', message: API_MESSAGES.noPastScans });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setState({ kind: 'none', message: reasonOf(err, FALLBACK_MESSAGES.fetchScanList) });
      });
    return () => controller.abort();
  }, [apiId]);

  if (state.kind === 'found') return <Navigate to={`/scans/${state.scanId}`} replace />;
  if (state.kind === 'none')
    return (
      <div data-testid="latest-scan-none">
        <Alert kind="info" testId="latest-scan-message">
          {state.message}
        </Alert>
        <Link to="/manage-apis">Back to API Management</Link>
      </div>
    );
  return (
    <div className="loading-block">
      <Spinner label="Finding the latest scan" />
    </div>
  );
}
