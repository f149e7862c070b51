// Manage, for the owner (spec sections 2, 6): Edit Details, Share Access, Schedule Scan, and a Danger
// Zone that deletes the API after the spec's confirmation.

import { useState, type ReactElement } from 'react';
import type { ApiSummary } from '../../../shared/contract';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../shared/messages';
import { deleteApi } from '../api/apis';
import { Alert } from '../components/Alert';
import { Icon, type IconName } from '../components/Icon';
import { Modal } from '../components/Modal';
import { currentAuth } from '../stores/useAuthStore';
import { noticeStore } from '../stores/useNoticeStore';
import { reasonOf } from './shared';

export type OwnerAction = 'edit' | 'share' | 'schedule';

const ACTIONS: { kind: OwnerAction; icon: IconName; title: string; text: string }[] = [
  { kind: 'edit', icon: 'edit', title: 'Edit Details', text: 'Change the name and the base URL scans are sent to.' },
  { kind: 'share', icon: 'users', title: 'Share Access', text: 'Invite teammates with View or Manage access, or revoke it.' },
  { kind: 'schedule', icon: 'calendar', title: 'Schedule Scan', text: 'Run this API’s scan daily, weekly or monthly.' },
];

export function ManageOwnerModal({
  api,
  onClose,
  onOpen,
  onDeleted,
}: {
  api: ApiSummary;
  onClose(): void;
  onOpen(kind: OwnerAction): void;
  onDeleted(): void;
}): ReactElement {
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async () => {
    if (!window.confirm(API_MESSAGES.confirmDelete(api.name))) return;
    const auth = currentAuth();
    if (!auth) return;
    setDeleting(true);
    setError(null);
    try {
      const res = await deleteApi(auth, api.id);
      if (!res.ok) {
        setError(res.message || FALLBACK_MESSAGES.deleteApi);
        return;
      }
      noticeStore.getState().show('success', API_MESSAGES.deleted(api.name));
      onDeleted();
    } catch (err) {
      setError(reasonOf(err, FALLBACK_MESSAGES.deleteApi));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Modal title="Manage API" subtitle={api.name} onClose={onClose} busy={deleting} testId="manage-owner-modal">
      {error && (
        <Alert kind="error" testId="manage-error">
          {error}
        </Alert>
      )}
      <div className="manage-actions">
        {ACTIONS.map((a) => (
          <button key={a.kind} type="button" className="manage-action" onClick={() => onOpen(a.kind)} disabled={deleting} data-testid={`manage-${a.kind}`}>
            <span className="stat-icon">
              <Icon name={a.icon} size={20} />
            </span>
            <span>
              <strong>{a.title}</strong>
              <span className="muted">{a.text}</span>
            </span>
            <Icon name="chevronRight" size={18} />
          </button>
        ))}
      </div>
      <section className="danger-zone" aria-labelledby="danger-title">
        <h3 id="danger-title">Danger Zone</h3>
        <p>Deleting the API removes its endpoints, scans, findings, schedule and shares for everyone. This cannot be undone.</p>
        <button type="button" className="button button-danger" onClick={() => void remove()} disabled={deleting} data-testid="delete-api">
          <Icon name="trash" size={16} />
          {deleting ? 'Deleting...' : 'Delete API'}
        </button>
      </section>
    </Modal>
  );
}
