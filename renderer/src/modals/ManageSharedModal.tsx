// Manage, for a user the API is shared with (spec sections 2, 6): their access, the endpoints and scan
// history, New Scan for a Manage share (its card shows only Manage), and Leave after a confirmation.

import { useState, type ReactElement } from 'react';
import type { ApiSummary } from '../../../shared/contract';
import { API_MESSAGES, FALLBACK_MESSAGES, SCAN_MESSAGES } from '../../../shared/messages';
import { leaveShare } from '../api/shares';
import { Alert } from '../components/Alert';
import { Icon } from '../components/Icon';
import { Modal } from '../components/Modal';
import { NewScanButton } from '../pages/manage-apis/ApiCard';
import { currentAuth } from '../stores/useAuthStore';
import { noticeStore } from '../stores/useNoticeStore';
import { reasonOf } from './shared';

export type SharedAction = 'endpoints' | 'history' | 'configure-scan';

export function ManageSharedModal({
  api,
  blockedReason,
  onClose,
  onOpen,
  onLeft,
}: {
  api: ApiSummary;
  blockedReason: string | null;
  onClose(): void;
  onOpen(kind: SharedAction): void;
  onLeft(): void;
}): ReactElement {
  const [leaving, setLeaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canScan = api.permission === 'manage';

  const leave = async () => {
    if (!window.confirm(API_MESSAGES.confirmLeave(api.name))) return;
    const auth = currentAuth();
    if (!auth) return;
    setLeaving(true);
    setError(null);
    try {
      const res = await leaveShare(auth, api.id);
      if (!res.ok) {
        setError(res.message || FALLBACK_MESSAGES.leaveShare);
        return;
      }
      noticeStore.getState().show('success', API_MESSAGES.leftShare);
      onLeft();
    } catch (err) {
      setError(reasonOf(err, FALLBACK_MESSAGES.leaveShare));
    } finally {
      setLeaving(false);
    }
  };

  return (
    <Modal title="Manage Shared API" subtitle={api.name} onClose={onClose} busy={leaving} testId="manage-shared-modal">
      {error && (
        <Alert kind="error" testId="manage-error">
          {error}
        </Alert>
      )}
      <p data-testid="shared-access">
        {API_MESSAGES.sharedBy(api.owner_name)} with <strong>{canScan ? 'Manage' : 'View'}</strong> access.
      </p>
      <div className="manage-actions">
        <button type="button" className="manage-action" onClick={() => onOpen('endpoints')} disabled={leaving} data-testid="shared-endpoints">
          <span className="stat-icon">
            <Icon name="list" size={20} />
          </span>
          <span>
            <strong>View Endpoints</strong>
            <span className="muted">The API&apos;s endpoints and the checks each one gets.</span>
          </span>
          <Icon name="chevronRight" size={18} />
        </button>
        <button type="button" className="manage-action" onClick={() => onOpen('history')} disabled={leaving} data-testid="shared-history">
          <span className="stat-icon">
            <Icon name="clock" size={20} />
          </span>
          <span>
            <strong>Scan History</strong>
            <span className="muted">Completed scans and their reports.</span>
          </span>
          <Icon name="chevronRight" size={18} />
        </button>
      </div>
      <div style={{ marginTop: 16 }} data-testid="shared-scan">
        {canScan ? (
          <div className="banner-row">
            <span className="muted small">Manage access lets you run scans of this API.</span>
            <NewScanButton blockedReason={blockedReason} onClick={() => onOpen('configure-scan')} testId="shared-new-scan" className="button button-primary" />
          </div>
        ) : (
          <p className="muted small" data-testid="shared-read-only" style={{ margin: 0 }}>
            {SCAN_MESSAGES.readOnlyScan}
          </p>
        )}
      </div>
      <section className="danger-zone" aria-labelledby="leave-title">
        <h3 id="leave-title">Leave this API</h3>
        <p>You will no longer see it or its scans. The owner can share it with you again.</p>
        <button type="button" className="button button-danger-outline" onClick={() => void leave()} disabled={leaving} data-testid="leave-share">
          <Icon name="logout" size={16} />
          {leaving ? 'Leaving...' : 'Leave'}
        </button>
      </section>
    </Modal>
  );
}
