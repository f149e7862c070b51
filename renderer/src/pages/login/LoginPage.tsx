// Login by username or email (spec sections 2, 4, 5, 8): success shows its message, then the page the
// user first asked for (or /dashboard) after 0.8 s; editing any field clears the current error. A server
// busy with other sign-ins is waited out while the button still says "Signing in...".

import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { DELAYS, PRODUCT_NAME } from '../../../../shared/constants';
import { LOGIN_MESSAGES } from '../../../../shared/messages';
import { loginPayload, validateLogin } from '../../../../shared/validation';
import { Alert } from '../../components/Alert';
import { AuthLayout } from '../../components/AuthLayout';
import { FormField } from '../../components/FormField';
import { SocialSignIn } from '../../components/SocialButton';
import { desktopBridge } from '../../api/request';
import { TeamServerPanel } from '../../components/TeamServerPanel';
import { useTimers } from '../../hooks/useTimers';
import { returnPath } from '../../lib/return-to';
import { completeSocialSignIn, oauthErrorFromUrl, oauthReturnFromUrl, withoutOauthParams, type SocialError } from '../../lib/social';
import { TwoFactorStep } from './TwoFactorStep';
import { useAuthStore } from '../../stores/useAuthStore';
import { useServerStore } from '../../stores/useServerStore';

/** The sign-up page hands a social sign-in that needs a code over to this page's code step. */
function handedTwoFactor(state: unknown): { challenge: string; prompt: string } | null {
  const step = (state as { twoFactor?: { challenge?: unknown; prompt?: unknown } } | null)?.twoFactor;
  return typeof step?.challenge === 'string' && typeof step.prompt === 'string' ? { challenge: step.challenge, prompt: step.prompt } : null;
}

export function LoginPage(): ReactElement {
  const login = useAuthStore((s) => s.login);
  const completeTwoFactor = useAuthStore((s) => s.completeTwoFactor);
  const setRedirectPending = useAuthStore((s) => s.setRedirectPending);
  const navigate = useNavigate();
  const location = useLocation();
  const timers = useTimers();
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [hint, setHint] = useState<string | null>(null);
  /** Whether the error is about what was typed (marks the fields invalid) or about social sign-in. */
  const [fieldError, setFieldError] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  /** The server was busy with other sign-ins and the page is trying again by itself. */
  const [retrying, setRetrying] = useState(false);
  /** Sync mode sends the user here after connecting or disconnecting, with a word about it. */
  const notice = useServerStore((s) => s.notice);
  const clearNotice = useServerStore((s) => s.clearNotice);
  /** Set when the password was right and the account asks for a second factor. */
  const [twoFactor, setTwoFactor] = useState<{ challenge: string; prompt: string } | null>(() => handedTwoFactor(location.state));

  /** Signed in (password or social): the spec's message, then the requested page after 0.8 s. */
  const succeed = () => {
    clearNotice();
    setSuccess(LOGIN_MESSAGES.success);
    timers.after(DELAYS.successMessageMs, () => setSuccess(null));
    const target = returnPath(location.state) ?? '/dashboard';
    timers.after(DELAYS.loginRedirectMs, () => navigate(target, { replace: true }));
  };

  // Back from the provider: an OAuth error is shown once; a code is exchanged and signs in. Either
  // way the URL is cleaned.
  useEffect(() => {
    const oauthError = oauthErrorFromUrl(location.search, location.hash, 'login');
    const response = oauthError ? null : oauthReturnFromUrl(location.search);
    if (!oauthError && !response) return;
    navigate(withoutOauthParams(location.pathname, location.search), { replace: true, state: location.state });
    if (oauthError) {
      setError(oauthError);
      setFieldError(false);
      return;
    }
    setSubmitting(true);
    setRedirectPending(true);
    void completeSocialSignIn(response!, 'login').then((outcome) => {
      if (outcome.kind === 'signedIn') return succeed();
      setSubmitting(false);
      if (outcome.kind === 'twoFactor') return setTwoFactor({ challenge: outcome.challenge, prompt: outcome.prompt });
      setRedirectPending(false);
      if (outcome.kind === 'error') onSocialError(outcome);
    });
    // Runs for the URL the provider sent back (then cleaned, so once).
  }, [location, navigate]);

  // Leaving the page ends its claim on the post-login redirect.
  useEffect(() => () => setRedirectPending(false), [setRedirectPending]);

  const edit = (setter: (v: string) => void) => (value: string) => {
    setter(value);
    setError(null);
    setHint(null);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    const problems = validateLogin({ identifier, password });
    if (problems.length) {
      setError(problems[0]!.message);
      setFieldError(true);
      return;
    }
    setError(null);
    setHint(null);
    setSubmitting(true);
    setRedirectPending(true);
    const outcome = await login(loginPayload(identifier, password), () => setRetrying(true));
    setRetrying(false);
    if (!outcome.ok && outcome.reason === 'two-factor') {
      setSubmitting(false);
      setTwoFactor({ challenge: outcome.challenge, prompt: outcome.message });
      return;
    }
    if (!outcome.ok) {
      setRedirectPending(false);
      setSubmitting(false);
      setError(outcome.reason === 'network' ? LOGIN_MESSAGES.unexpected : outcome.message || LOGIN_MESSAGES.failed);
      setFieldError(outcome.reason === 'rejected' && outcome.status < 500);
      return;
    }
    succeed();
  };

  const submitCode = async (code: string): Promise<string | null> => {
    if (!twoFactor) return null;
    const outcome = await completeTwoFactor(twoFactor.challenge, code);
    if (outcome.ok) {
      succeed();
      return null;
    }
    setRedirectPending(false);
    if (outcome.reason === 'network') return LOGIN_MESSAGES.unexpected;
    // An expired challenge cannot be retried: back to the password.
    if (outcome.status === 401 && /expired/i.test(outcome.message)) {
      setTwoFactor(null);
      setError(outcome.message);
      setFieldError(false);
      return null;
    }
    return outcome.message || LOGIN_MESSAGES.failed;
  };

  function onSocialError(err: SocialError) {
    setRedirectPending(false);
    setError(err.message);
    setHint(err.hint);
    setFieldError(false);
  }

  const busy = submitting || !!success;
  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Sign in to scan your APIs and review findings."
      testId="login-page"
    >
      {!twoFactor && (
        <SocialSignIn
          page="login"
          divider="or sign in with your account"
          disabled={busy}
          onError={onSocialError}
          onStart={() => setRedirectPending(true)}
          onSignedIn={succeed}
          onTwoFactor={setTwoFactor}
        />
      )}
      {error && (
        <Alert kind="error" testId="login-error">
          <span id="login-error-text">{error}</span>
          {hint && <span className="alert-hint"> {hint}</span>}
        </Alert>
      )}
      {success && (
        <Alert kind="success" testId="login-success">
          {success}
        </Alert>
      )}
      {retrying && !error && !success && (
        <Alert kind="info" testId="login-busy">
          {LOGIN_MESSAGES.busyRetrying}
        </Alert>
      )}
      {notice && !error && !success && !retrying && (
        <Alert kind="info" testId="login-notice">
          {notice}
        </Alert>
      )}
      {twoFactor ? (
        <TwoFactorStep
          prompt={twoFactor.prompt}
          submit={(code) => {
            setRedirectPending(true);
            return submitCode(code);
          }}
          cancel={() => {
            setTwoFactor(null);
            setPassword('');
            setRedirectPending(false);
          }}
          disabled={!!success}
        />
      ) : (
      <form onSubmit={onSubmit} noValidate className="form">
        <FormField
          label="Username or email"
          name="identifier"
          autoComplete="username"
          value={identifier}
          onChange={(e) => edit(setIdentifier)(e.target.value)}
          invalid={!!error && fieldError}
          errorId="login-error-text"
          disabled={busy}
          testId="login-identifier"
        />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => edit(setPassword)(e.target.value)}
          invalid={!!error && fieldError}
          errorId="login-error-text"
          disabled={busy}
          testId="login-password"
        />
        <div className="form-row-end">
          <Link to="/forgot-password" data-testid="forgot-password-link">
            Forgot Password?
          </Link>
        </div>
        <button type="submit" className="button button-primary button-block" disabled={busy} data-testid="login-submit">
          {submitting && !success ? 'Signing in...' : 'Sign In'}
        </button>
      </form>
      )}
      <p className="auth-switch">
        New to {PRODUCT_NAME}?{' '}
        <Link to="/signup" data-testid="create-account-link">
          Create Account
        </Link>
      </p>
      {/* Sync mode before signing in (desktop app only): an account may exist only on the team's server. */}
      {desktopBridge() && (
        <details className="auth-team-server" data-testid="login-team-server">
          <summary>Team server</summary>
          <TeamServerPanel />
        </details>
      )}
    </AuthLayout>
  );
}
