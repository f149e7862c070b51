// Settings > Security: where the account is signed in (sign one out, or every other one) and its
// recent sign-ins (recorded while login notifications are on).

import { useCallback, useEffect, useState, type ReactElement } from 'react';
import type { ActiveSession, SignInRecord } from '../../../../shared/contract';
import { defaultTimeZone, formatTimestamp } from '../../../../shared/display';
import * as settingsApi from '../../api/settings';
import { Alert } from '../../components/Alert';
import type { SettingsContext } from './types';

const zone = defaultTimeZone();
const when = (iso: string) => formatTimestamp(iso, zone);

export function SessionsPanel({ ctx }: { ctx: SettingsContext }): ReactElement {
  const [sessions, setSessions] = useState<ActiveSession[] | null>(null);
  const [signIns, setSignIns] = useState<SignInRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const token = ctx.token();
    if (!token) return ctx.missingToken();
    const [s, i] = await Promise.all([settingsApi.listSessions(token), settingsApi.listSignIns(token)]);
    if ((!s.ok && s.sessionExpired) || (!i.ok && i.sessionExpired)) return ctx.sessionExpired();
    if (s.ok) setSessions(s.data.sessions);
    if (i.ok) setSignIns(i.data.sign_ins);
    setError(!s.ok ? s.message : !i.ok ? i.message : null);
  }, [ctx]);

  useEffect(() => {
    void load();
  }, []);

  const act = async (call: (token: string) => Promise<{ ok: boolean; message: string; sessionExpired?: boolean }>, done: string) => {
    const token = ctx.token();
    if (!token) return ctx.missingToken();
    setBusy(true);
    const res = await call(token);
    setBusy(false);
    if (!res.ok) {
      if (res.sessionExpired) return ctx.sessionExpired();
      setError(res.message);
      return;
    }
    ctx.setBanner({ kind: 'success', text: done });
    await load();
  };

  const off = busy || ctx.disabled;
  const others = (sessions ?? []).filter((s) => !s.current).length;
  return (
    <>
      <section aria-labelledby="sessions-title" data-testid="sessions-panel">
        <h2 className="settings-section-title" id="sessions-title">
          Active sessions
        </h2>
        <p className="settings-section-lead">Every place your account is signed in. Sign out any you do not recognise.</p>
        {error && <Alert kind="error">{error}</Alert>}
        {sessions && (
          <table className="history-table" data-testid="sessions-table">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">
                  <span className="sr-only">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id} data-testid="session-row">
                  <td>{s.client ?? 'Unknown client'}</td>
                  <td className="mono" style={{ whiteSpace: 'nowrap' }}>{s.ip ?? '-'}</td>
                  <td>{when(s.created_at)}</td>
                  <td>{when(s.last_used_at)}</td>
                  <td>
                    {s.current ? (
                      <span className="pill pill-success">This session</span>
                    ) : (
                      <button
                        type="button"
                        className="button button-small button-secondary"
                        disabled={off}
                        onClick={() => void act((t) => settingsApi.signOutSession(t, s.id), 'That session is signed out.')}
                        data-testid="session-sign-out"
                      >
                        Sign out
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div className="form-actions" style={{ justifyContent: 'flex-start' }}>
          <button
            type="button"
            className="button button-secondary"
            disabled={off || others === 0}
            onClick={() => void act((t) => settingsApi.signOutOtherSessions(t), 'Signed out of every other session.')}
            data-testid="sessions-sign-out-others"
          >
            Sign out everywhere else
          </button>
        </div>
      </section>

      <hr className="form-divider" />

      <section aria-labelledby="sign-ins-title" data-testid="sign-ins-panel">
        <h2 className="settings-section-title" id="sign-ins-title">
          Recent sign-ins
        </h2>
        <p className="settings-section-lead">Recorded while login notifications are on.</p>
        {signIns && signIns.length === 0 && <p className="muted">No sign-ins recorded.</p>}
        {signIns && signIns.length > 0 && (
          <table className="history-table" data-testid="sign-ins-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Device</th>
                <th scope="col">Address</th>
                <th scope="col">How</th>
              </tr>
            </thead>
            <tbody>
              {signIns.map((s, i) => (
                <tr key={`${s.created_at}-${i}`}>
                  <td>{when(s.created_at)}</td>
                  <td>{s.client ?? 'Unknown client'}</td>
                  <td className="mono" style={{ whiteSpace: 'nowrap' }}>{s.ip ?? '-'}</td>
                  <td>{s.method.replace('+totp', ' + code')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
