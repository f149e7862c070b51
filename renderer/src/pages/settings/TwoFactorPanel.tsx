// Settings > Security: two-factor sign-in. Off: set up with an authenticator app (QR code or the
// secret), confirmed by a first code; the ten recovery codes are shown once. On: turn off with the
// password and a code, or replace the recovery codes.

import { useCallback, useEffect, useState, type FormEvent, type ReactElement } from 'react';
import type { TwoFactorSetup, TwoFactorStatus } from '../../../../shared/contract';
import * as settingsApi from '../../api/settings';
import type { SettingsResult } from '../../api/settings';
import { Alert } from '../../components/Alert';
import type { SettingsContext } from './types';

type Stage =
  | { kind: 'idle' }
  | { kind: 'setup'; setup: TwoFactorSetup }
  | { kind: 'codes'; codes: string[]; renewed: boolean }
  | { kind: 'disable' }
  | { kind: 'renew' };

/** The server's own words for a refused call (its 4xx messages are specific), else the client's. */
function failureText(res: Extract<SettingsResult<unknown>, { ok: false }>): string {
  return res.kind === 'http' && res.status < 500 && res.status !== 401 ? res.serverMessage || res.message : res.message;
}

function CodeInput({ value, onChange, disabled, testId, label = 'Authentication code' }: { value: string; onChange(v: string): void; disabled: boolean; testId: string; label?: string }): ReactElement {
  return (
    <div className="field" style={{ maxWidth: 280 }}>
      <label htmlFor={testId}>{label}</label>
      <input
        id={testId}
        autoComplete="one-time-code"
        inputMode="numeric"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        data-testid={testId}
      />
    </div>
  );
}

export function TwoFactorPanel({ ctx }: { ctx: SettingsContext }): ReactElement {
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Runs a call with the token; handles the session ending; returns the data or null. */
  const run = useCallback(
    async <T,>(call: (token: string) => Promise<SettingsResult<T>>): Promise<T | null> => {
      const token = ctx.token();
      if (!token) {
        ctx.missingToken();
        return null;
      }
      setBusy(true);
      setError(null);
      const res = await call(token);
      setBusy(false);
      if (res.ok) return res.data ?? ({} as T);
      if (res.sessionExpired) ctx.sessionExpired();
      else setError(failureText(res));
      return null;
    },
    [ctx],
  );

  const refresh = useCallback(async () => {
    const s = await run((t) => settingsApi.getTwoFactor(t));
    if (s) setStatus(s);
  }, [run]);

  useEffect(() => {
    void refresh();
    // Loaded once; later changes come from this panel's own actions.
  }, []);

  const reset = () => {
    setStage({ kind: 'idle' });
    setCode('');
    setPassword('');
    setError(null);
  };

  const startSetup = async () => {
    const setup = await run((t) => settingsApi.setupTwoFactor(t));
    if (setup) setStage({ kind: 'setup', setup });
  };

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    const res = await run((t) => settingsApi.enableTwoFactor(t, code.trim()));
    if (!res) return;
    setCode('');
    setStage({ kind: 'codes', codes: res.recovery_codes, renewed: false });
    await refresh();
  };

  const disable = async (e: FormEvent) => {
    e.preventDefault();
    const res = await run((t) => settingsApi.disableTwoFactor(t, { password, code: code.trim() }));
    if (!res) return;
    reset();
    ctx.setBanner({ kind: 'success', text: 'Two-factor authentication is off.' });
    await refresh();
  };

  const renew = async (e: FormEvent) => {
    e.preventDefault();
    const res = await run((t) => settingsApi.renewRecoveryCodes(t, code.trim()));
    if (!res) return;
    setCode('');
    setStage({ kind: 'codes', codes: res.recovery_codes, renewed: true });
    await refresh();
  };

  const off = busy || ctx.disabled;
  return (
    <section aria-labelledby="two-factor-title" data-testid="two-factor-panel">
      <h2 className="settings-section-title" id="two-factor-title">
        Two-factor authentication{' '}
        {status && (
          <span className={`pill ${status.enabled ? 'pill-success' : 'pill-ready'}`} data-testid="two-factor-state">
            {status.enabled ? 'On' : 'Off'}
          </span>
        )}
      </h2>
      <p className="settings-section-lead">
        With two-factor sign-in on, signing in needs a code from an authenticator app (or a recovery code) as well as your
        password.
        {status?.enabled ? ` Recovery codes left: ${status.recovery_codes_left}.` : ''}
      </p>
      {error && (
        <Alert kind="error" testId="two-factor-error">
          {error}
        </Alert>
      )}

      {stage.kind === 'idle' && status && !status.enabled && (
        <div className="form-actions" style={{ justifyContent: 'flex-start' }}>
          <button type="button" className="button button-primary" onClick={() => void startSetup()} disabled={off} data-testid="two-factor-setup">
            Set up two-factor authentication
          </button>
        </div>
      )}

      {stage.kind === 'setup' && (
        <form onSubmit={confirm} className="form" aria-label="Confirm two-factor set-up">
          <p>1. Scan this QR code with your authenticator app, or enter the key by hand.</p>
          <img src={stage.setup.qr_data_url} alt="QR code for your authenticator app" width={200} height={200} data-testid="two-factor-qr" />
          <p>
            Key: <code className="mono" data-testid="two-factor-secret">{stage.setup.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
          </p>
          <p>2. Enter the 6-digit code the app shows.</p>
          <CodeInput value={code} onChange={setCode} disabled={off} testId="two-factor-confirm-code" />
          <div className="form-actions" style={{ justifyContent: 'flex-start' }}>
            <button type="button" className="button button-secondary" onClick={reset} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={off || !/^\d{6}$/.test(code.trim())} data-testid="two-factor-confirm">
              {busy ? 'Verifying...' : 'Turn on'}
            </button>
          </div>
        </form>
      )}

      {stage.kind === 'codes' && (
        <div data-testid="two-factor-recovery">
          <Alert kind="success">
            {stage.renewed
              ? 'New recovery codes created. The old ones no longer work.'
              : 'Two-factor authentication is on. Keep your recovery codes somewhere safe: they are shown only once.'}
          </Alert>
          <p>Each recovery code signs you in once when you cannot use your authenticator app.</p>
          <ol className="mono" data-testid="two-factor-recovery-codes" style={{ columns: 2, maxWidth: 360 }}>
            {stage.codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ol>
          <div className="form-actions" style={{ justifyContent: 'flex-start' }}>
            <button type="button" className="button button-primary" onClick={reset} data-testid="two-factor-codes-done">
              I have saved these codes
            </button>
          </div>
        </div>
      )}

      {stage.kind === 'idle' && status?.enabled && (
        <div className="form-actions" style={{ justifyContent: 'flex-start' }}>
          <button type="button" className="button button-secondary" onClick={() => setStage({ kind: 'renew' })} disabled={off} data-testid="two-factor-renew">
            New recovery codes
          </button>
          <button type="button" className="button button-danger-outline" onClick={() => setStage({ kind: 'disable' })} disabled={off} data-testid="two-factor-disable">
            Turn off
          </button>
        </div>
      )}

      {stage.kind === 'disable' && (
        <form onSubmit={disable} className="form" aria-label="Turn off two-factor authentication">
          <div className="field" style={{ maxWidth: 320 }}>
            <label htmlFor="two-factor-password">Password</label>
            <input
              id="two-factor-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              disabled={off}
              data-testid="two-factor-password"
            />
          </div>
          <CodeInput value={code} onChange={setCode} disabled={off} testId="two-factor-disable-code" label="Authentication or recovery code" />
          <div className="form-actions" style={{ justifyContent: 'flex-start' }}>
            <button type="button" className="button button-secondary" onClick={reset} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="button button-danger" disabled={off || !code.trim()} data-testid="two-factor-disable-confirm">
              Turn off two-factor
            </button>
          </div>
        </form>
      )}

      {stage.kind === 'renew' && (
        <form onSubmit={renew} className="form" aria-label="New recovery codes">
          <CodeInput value={code} onChange={setCode} disabled={off} testId="two-factor-renew-code" />
          <div className="form-actions" style={{ justifyContent: 'flex-start' }}>
            <button type="button" className="button button-secondary" onClick={reset} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={off || !code.trim()} data-testid="two-factor-renew-confirm">
              Create new codes
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
