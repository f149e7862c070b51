// Share (spec sections 4, 5, 6, 7): invite an account by email with View (read) or Manage, see who has
// access, change it, and revoke it after a confirmation. Owner only.

import { useCallback, useEffect, useId, useState, type FormEvent, type ReactElement } from 'react';
import { SHARE_PERMISSION_LABELS, SHARE_PERMISSIONS, type SharePermission } from '../../../shared/constants';
import type { ApiSummary, Share } from '../../../shared/contract';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../shared/messages';
import { validateShare } from '../../../shared/validation';
import { listShares, revokeShare, shareApi } from '../api/shares';
import { Field } from '../components/Field';
import { Icon } from '../components/Icon';
import { LoadStatus, type Loadable } from '../components/LoadStatus';
import { Modal } from '../components/Modal';
import { useTransient } from '../hooks/useTransient';
import { currentAuth } from '../stores/useAuthStore';
import { MessageLine, reasonOf } from './shared';

type Load = Loadable<{ shares: Share[] }>;

export function ShareModal({ api, onClose }: { api: ApiSummary; onClose(): void }): ReactElement {
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [email, setEmail] = useState('');
  const [permission, setPermission] = useState<SharePermission>('read');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const { message, show } = useTransient();
  const id = useId();

  const refresh = useCallback(async () => {
    const auth = currentAuth();
    if (!auth) return;
    try {
      const res = await listShares(auth, api.id);
      if (res.ok && Array.isArray(res.data?.shares)) setLoad({ kind: 'ready', shares: res.data.shares });
      else setLoad({ kind: 'error', message: API_MESSAGES.fetchSharesError(res.message || FALLBACK_MESSAGES.fetchShares) });
    } catch (err) {
      setLoad({ kind: 'error', message: API_MESSAGES.fetchSharesError(reasonOf(err, FALLBACK_MESSAGES.fetchShares)) });
    }
  }, [api.id]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const share = async (target: string, perm: SharePermission, key: string): Promise<boolean> => {
    const auth = currentAuth();
    if (!auth) return false;
    setBusy(key);
    try {
      const res = await shareApi(auth, api.id, target, perm);
      if (!res.ok) {
        show('error', API_MESSAGES.shareError(res.message || FALLBACK_MESSAGES.share));
        return false;
      }
      // The spec: the response message is shown.
      show('success', res.message || `API shared with ${target} (${SHARE_PERMISSION_LABELS[perm]}).`);
      await refresh();
      return true;
    } catch (err) {
      show('error', API_MESSAGES.shareError(reasonOf(err, FALLBACK_MESSAGES.share)));
      return false;
    } finally {
      setBusy(null);
    }
  };

  const invite = async (e: FormEvent) => {
    e.preventDefault();
    const problems = validateShare({ email });
    if (problems.length) {
      setEmailError(problems[0]!.message);
      return;
    }
    setEmailError(null);
    if (await share(email.trim(), permission, 'invite')) setEmail('');
  };

  const revoke = async (s: Share) => {
    if (!window.confirm(API_MESSAGES.confirmRevoke(s.name || s.email))) return;
    const auth = currentAuth();
    if (!auth) return;
    setBusy(`revoke-${s.user_id}`);
    try {
      const res = await revokeShare(auth, api.id, s.user_id);
      if (!res.ok) {
        show('error', API_MESSAGES.revokeError(res.message || FALLBACK_MESSAGES.revoke));
        return;
      }
      show('success', API_MESSAGES.accessRevoked);
      await refresh();
    } catch (err) {
      show('error', API_MESSAGES.revokeError(reasonOf(err, FALLBACK_MESSAGES.revoke)));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      title="Share Access"
      subtitle={api.name}
      onClose={onClose}
      busy={!!busy}
      testId="share-modal"
      footer={
        <button type="button" className="button button-primary" onClick={onClose} disabled={!!busy}>
          Done
        </button>
      }
    >
      <MessageLine message={message} testId="share-message" />
      <form className="invite-row" onSubmit={(e) => void invite(e)} noValidate aria-label="Invite by email">
        <Field label="Email address" error={emailError} testId="share-email">
          {(p) => (
            <input
              {...p}
              type="email"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setEmailError(null);
              }}
              placeholder="teammate@example.com"
              autoComplete="off"
              disabled={!!busy}
              data-testid="share-email"
            />
          )}
        </Field>
        <div className="field">
          <label htmlFor={`${id}-perm`}>Access</label>
          <select id={`${id}-perm`} value={permission} onChange={(e) => setPermission(e.target.value as SharePermission)} disabled={!!busy} data-testid="share-permission">
            {SHARE_PERMISSIONS.map((p) => (
              <option key={p} value={p}>
                {SHARE_PERMISSION_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-primary" disabled={!!busy} data-testid="share-submit" style={{ marginBottom: emailError ? 26 : 0 }}>
          <Icon name="users" size={16} />
          {busy === 'invite' ? 'Inviting...' : 'Invite'}
        </button>
      </form>
      <p className="muted small" style={{ marginTop: 10 }}>
        View: endpoints, scan history and reports. Manage: also runs scans. Only you edit, share, schedule or delete this API.
      </p>

      <h3 style={{ fontSize: '1rem', marginTop: 20 }}>People with access</h3>
      <LoadStatus load={load} label="Loading people with access" errorTestId="shares-error" />
      {load.kind === 'ready' &&
        (load.shares.length === 0 ? (
          <p className="empty-state" data-testid="shares-empty">
            {API_MESSAGES.notShared}
          </p>
        ) : (
          <ul className="share-list" data-testid="share-list">
            {load.shares.map((s) => (
              <li key={s.user_id} data-testid="share-row" data-email={s.email}>
                <span className="share-who">
                  <strong>{s.name || s.email}</strong>
                  <span>{s.email}</span>
                </span>
                <label className="select-inline">
                  <span className="sr-only">Access for {s.email}</span>
                  <select
                    value={s.permission}
                    onChange={(e) => void share(s.email, e.target.value as SharePermission, `perm-${s.user_id}`)}
                    disabled={!!busy}
                    data-testid="share-row-permission"
                  >
                    {SHARE_PERMISSIONS.map((p) => (
                      <option key={p} value={p}>
                        {SHARE_PERMISSION_LABELS[p]}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="button" className="button button-danger-outline button-small" onClick={() => void revoke(s)} disabled={!!busy} data-testid="share-revoke">
                  {busy === `revoke-${s.user_id}` ? 'Revoking...' : 'Revoke'}
                </button>
              </li>
            ))}
          </ul>
        ))}
    </Modal>
  );
}
