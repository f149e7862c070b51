// Forgot password (spec sections 2, 4, 8): one email field; whatever the account, the page answers
// with the same generic message so it never tells whether an address is registered.

import { useState, type FormEvent, type ReactElement } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { FORGOT_MESSAGES } from '../../../../shared/messages';
import * as authApi from '../../api/auth';
import { Alert } from '../../components/Alert';
import { AuthLayout } from '../../components/AuthLayout';
import { FormField } from '../../components/FormField';
import { Icon } from '../../components/Icon';

type Phase = { kind: 'idle' } | { kind: 'submitting' } | { kind: 'result'; ok: boolean; message: string };

export function ForgotPasswordPage(): ReactElement {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    // The browser checks the address (type=email, required) before this runs.
    if (phase.kind === 'submitting') return;
    setPhase({ kind: 'submitting' });
    try {
      // The response is not read: the message is the same for every address.
      await authApi.forgotPassword(email.trim());
      setPhase({ kind: 'result', ok: true, message: FORGOT_MESSAGES.generic });
    } catch {
      setPhase({ kind: 'result', ok: false, message: FORGOT_MESSAGES.network });
    }
  };

  return (
    <AuthLayout
      title="Reset your password"
      subtitle="Enter the email address of your account and we will send you a link to choose a new password."
      testId="forgot-password-page"
    >
      {phase.kind === 'result' && (
        <Alert kind={phase.ok ? 'success' : 'error'} testId="forgot-result">
          {phase.message}
        </Alert>
      )}
      <form onSubmit={onSubmit} className="form">
        <FormField
          label="Email"
          name="email"
          type="email"
          required
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          disabled={phase.kind === 'submitting'}
          testId="forgot-email"
        />
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={phase.kind === 'submitting'}
          data-testid="forgot-submit"
        >
          {phase.kind === 'submitting' ? 'Sending...' : 'Send reset link'}
        </button>
      </form>
      <div className="auth-actions">
        <button type="button" className="button button-ghost" onClick={() => navigate(-1)} data-testid="forgot-back">
          <Icon name="arrowLeft" size={16} />
          <span>Back</span>
        </button>
        <Link to="/login" data-testid="go-to-login">
          Go to Login
        </Link>
      </div>
    </AuthLayout>
  );
}
