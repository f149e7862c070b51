// Sign-up (spec sections 2, 4, 5, 8): the rules are checked in the spec's order and the first failing
// one is shown with a shake; success signs the user in with the same email and password and goes to
// /dashboard after 1.5 s.

import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { DELAYS } from '../../../../shared/constants';
import { SIGNUP_MESSAGES } from '../../../../shared/messages';
import { loginPayload, signupPayload, validateSignup } from '../../../../shared/validation';
import * as authApi from '../../api/auth';
import { Alert } from '../../components/Alert';
import { AuthLayout } from '../../components/AuthLayout';
import { FormField } from '../../components/FormField';
import { SocialSignIn } from '../../components/SocialButton';
import { useShake } from '../../hooks/useShake';
import { useTimers } from '../../hooks/useTimers';
import { completeSocialSignIn, oauthErrorFromUrl, oauthReturnFromUrl, withoutOauthParams, type SocialError } from '../../lib/social';
import { useAuthStore } from '../../stores/useAuthStore';

interface SignupFields {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
  confirmPassword: string;
}

const EMPTY: SignupFields = { firstName: '', lastName: '', email: '', username: '', password: '', confirmPassword: '' };

export function SignupPage(): ReactElement {
  const login = useAuthStore((s) => s.login);
  const setRedirectPending = useAuthStore((s) => s.setRedirectPending);
  const navigate = useNavigate();
  const location = useLocation();
  const timers = useTimers();
  const { ref: cardRef, shake } = useShake<HTMLDivElement>();
  const [fields, setFields] = useState<SignupFields>(EMPTY);
  const [terms, setTerms] = useState(false);
  const [error, setError] = useState<{ field: string | null; message: string; hint?: string } | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  /** Signed in (after sign-up or with the provider): the spec's message, then /dashboard after 1.5 s. */
  const succeed = () => {
    setSuccess(SIGNUP_MESSAGES.success);
    timers.after(DELAYS.successMessageMs, () => setSuccess(null));
    timers.after(DELAYS.signupRedirectMs, () => navigate('/dashboard', { replace: true }));
  };

  // Back from the provider: an OAuth error is shown once; a code is exchanged and signs in.
  useEffect(() => {
    const oauthError = oauthErrorFromUrl(location.search, location.hash, 'signup');
    const response = oauthError ? null : oauthReturnFromUrl(location.search);
    if (!oauthError && !response) return;
    navigate(withoutOauthParams(location.pathname, location.search), { replace: true });
    if (oauthError) {
      setError({ field: null, message: oauthError });
      return;
    }
    setSubmitting(true);
    setRedirectPending(true);
    void completeSocialSignIn(response!, 'signup').then((outcome) => {
      if (outcome.kind === 'signedIn') return succeed();
      if (outcome.kind === 'twoFactor') return toCodeStep(outcome);
      setSubmitting(false);
      if (outcome.kind === 'error') onSocialError(outcome);
    });
  }, [location, navigate]);

  useEffect(() => () => setRedirectPending(false), [setRedirectPending]);

  const fail = (field: string | null, message: string, hint?: string) => {
    setError({ field, message, hint });
    shake();
  };

  const set = (key: keyof SignupFields) => (value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    setError(null);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    const problems = validateSignup({ ...fields, terms });
    if (problems.length) {
      fail(problems[0]!.field, problems[0]!.message);
      return;
    }
    setError(null);
    setSubmitting(true);
    const payload = signupPayload(fields);
    try {
      const res = await authApi.signup(payload);
      if (!res.ok) {
        setSubmitting(false);
        fail(res.errors[0]?.field ?? null, res.message || SIGNUP_MESSAGES.failed);
        return;
      }
    } catch {
      setSubmitting(false);
      fail(null, SIGNUP_MESSAGES.unexpected);
      return;
    }
    setRedirectPending(true);
    const outcome = await login(loginPayload(payload.email, payload.password));
    if (!outcome.ok) {
      setRedirectPending(false);
      setSubmitting(false);
      fail(null, SIGNUP_MESSAGES.autoLoginFailed);
      return;
    }
    succeed();
  };

  /** An existing account with two-factor sign-in: the login page asks for its code. */
  function toCodeStep(step: { challenge: string; prompt: string }) {
    navigate('/login', { replace: true, state: { twoFactor: { challenge: step.challenge, prompt: step.prompt } } });
  }

  function onSocialError(err: SocialError) {
    setRedirectPending(false);
    fail(null, err.message, err.hint);
  }

  const busy = submitting || !!success;
  const invalid = (field: string) => error?.field === field;
  const common = (key: keyof SignupFields) => ({
    name: key,
    value: fields[key],
    onChange: (e: { target: { value: string } }) => set(key)(e.target.value),
    invalid: invalid(key),
    errorId: 'signup-error-text',
    disabled: busy,
  });

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Start scanning your APIs against the OWASP API Security Top 10."
      testId="signup-page"
      cardRef={cardRef}
      wide
    >
      <SocialSignIn
        page="signup"
        divider="or sign up with email"
        disabled={busy}
        onError={onSocialError}
        onStart={() => setRedirectPending(true)}
        onSignedIn={succeed}
        onTwoFactor={toCodeStep}
      />
      {error && (
        <Alert kind="error" testId="signup-error">
          <span id="signup-error-text">{error.message}</span>
          {error.hint && <span className="alert-hint"> {error.hint}</span>}
        </Alert>
      )}
      {success && (
        <Alert kind="success" testId="signup-success">
          {success}
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate className="form">
        <div className="form-grid">
          <FormField label="First name" autoComplete="given-name" testId="signup-first-name" {...common('firstName')} />
          <FormField label="Last name" autoComplete="family-name" testId="signup-last-name" {...common('lastName')} />
        </div>
        <FormField label="Email" type="email" autoComplete="email" testId="signup-email" {...common('email')} />
        <FormField
          label="Username"
          autoComplete="username"
          hint={SIGNUP_MESSAGES.usernameHint}
          testId="signup-username"
          {...common('username')}
        />
        <div className="form-grid">
          <FormField
            label="Password"
            type="password"
            autoComplete="new-password"
            hint={SIGNUP_MESSAGES.passwordHint}
            testId="signup-password"
            {...common('password')}
          />
          <FormField
            label="Confirm password"
            type="password"
            autoComplete="new-password"
            testId="signup-confirm-password"
            {...common('confirmPassword')}
          />
        </div>
        <div className={`checkbox${invalid('terms') ? ' field-invalid' : ''}`}>
          <input
            id="signup-terms"
            type="checkbox"
            checked={terms}
            onChange={(e) => {
              setTerms(e.target.checked);
              setError(null);
            }}
            disabled={busy}
            aria-invalid={invalid('terms') || undefined}
            aria-describedby={invalid('terms') ? 'signup-error-text' : undefined}
            data-testid="signup-terms"
          />
          <label htmlFor="signup-terms">
            I agree to the <Link to="/terms">Terms of Service</Link> and the <Link to="/privacy">Privacy Policy</Link>
          </label>
        </div>
        <button type="submit" className="button button-primary button-block" disabled={busy} data-testid="signup-submit">
          {submitting && !success ? 'Creating account...' : 'Create Account'}
        </button>
      </form>
      <p className="auth-switch">
        Already have an account?{' '}
        <Link to="/login" data-testid="login-link">
          Log in
        </Link>
      </p>
    </AuthLayout>
  );
}
