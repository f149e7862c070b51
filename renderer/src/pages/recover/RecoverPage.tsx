// Choose a new password from the emailed (or logged) reset link (spec sections 2, 5, 8): the token
// comes from ?token=; without it the form is disabled and says where to open the page from.

import { useState, type FormEvent, type ReactElement } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { DELAYS, LIMITS } from '../../../../shared/constants';
import { RESET_MESSAGES } from '../../../../shared/messages';
import { validateReset } from '../../../../shared/validation';
import * as authApi from '../../api/auth';
import { Alert } from '../../components/Alert';
import { AuthLayout } from '../../components/AuthLayout';
import { FormField } from '../../components/FormField';
import { useTimers } from '../../hooks/useTimers';

export function RecoverPage(): ReactElement {
  const [params] = useSearchParams();
  const token = (params.get('token') ?? '').trim();
  const navigate = useNavigate();
  const timers = useTimers();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string; field?: string } | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving || !token) return;
    const problems = validateReset({ token, password, confirmPassword });
    if (problems.length) {
      setResult({ ok: false, message: problems[0]!.message, field: problems[0]!.field });
      return;
    }
    setSaving(true);
    setResult(null);
    try {
      const res = await authApi.resetPassword(token, password);
      if (!res.ok) {
        setSaving(false);
        setResult({ ok: false, message: res.message || RESET_MESSAGES.failed });
        return;
      }
      setResult({ ok: true, message: RESET_MESSAGES.success });
      timers.after(DELAYS.resetRedirectMs, () => navigate('/login', { replace: true }));
    } catch {
      setSaving(false);
      setResult({ ok: false, message: RESET_MESSAGES.network });
    }
  };

  const done = result?.ok === true;
  const disabled = saving || !token || done;
  const edit = (setter: (v: string) => void) => (e: { target: { value: string } }) => {
    setter(e.target.value);
    if (result && !result.ok) setResult(null);
  };
  return (
    <AuthLayout title="Choose a new password" subtitle="Use at least 8 characters." testId="recover-page">
      {!token && (
        <Alert kind="info" testId="recover-no-token">
          {RESET_MESSAGES.noToken}
        </Alert>
      )}
      {result && (
        <Alert kind={result.ok ? 'success' : 'error'} testId={result.ok ? 'recover-success' : 'recover-error'}>
          <span id="recover-error-text">{result.message}</span>
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate className="form">
        <FormField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={LIMITS.passwordMin}
          value={password}
          onChange={edit(setPassword)}
          invalid={result?.field === 'password'}
          errorId="recover-error-text"
          disabled={disabled}
          testId="recover-password"
        />
        <FormField
          label="Confirm new password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          minLength={LIMITS.passwordMin}
          value={confirmPassword}
          onChange={edit(setConfirmPassword)}
          invalid={result?.field === 'confirmPassword'}
          errorId="recover-error-text"
          disabled={disabled}
          testId="recover-confirm-password"
        />
        <button type="submit" className="button button-primary button-block" disabled={disabled} data-testid="recover-submit">
          {saving ? 'Saving...' : 'Save new password'}
        </button>
      </form>
      <p className="auth-switch">
        <Link to="/login">Back to Login</Link> · <Link to="/forgot-password">Request a new link</Link>
      </p>
    </AuthLayout>
  );
}
