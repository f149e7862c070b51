// The second step of a two-factor sign-in: a 6-digit code from the authenticator app, or one of the
// recovery codes shown at enrolment.

import { useState, type FormEvent, type ReactElement } from 'react';
import { Alert } from '../../components/Alert';
import { FormField } from '../../components/FormField';

export interface TwoFactorStepProps {
  /** The server's instruction from the first step. */
  prompt: string;
  /** Resolves with an error text, or null once signed in. */
  submit(code: string): Promise<string | null>;
  /** Back to the password form (the challenge is dropped). */
  cancel(): void;
  disabled: boolean;
}

export function TwoFactorStep({ prompt, submit, cancel, disabled }: TwoFactorStepProps): ReactElement {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !code.trim()) return;
    setBusy(true);
    setError(await submit(code.trim()));
    setBusy(false);
  };

  const off = busy || disabled;
  return (
    <form onSubmit={onSubmit} noValidate className="form" data-testid="two-factor-step" aria-label="Two-factor code">
      <Alert kind="info" testId="two-factor-prompt">
        {prompt}
      </Alert>
      {error && (
        <Alert kind="error" testId="two-factor-error">
          <span id="two-factor-error-text">{error}</span>
        </Alert>
      )}
      <FormField
        label="Authentication code"
        name="code"
        hint="6 digits from your authenticator app, or a recovery code such as k7m2q-x9p4d"
        autoComplete="one-time-code"
        inputMode="text"
        autoFocus
        value={code}
        onChange={(e) => {
          setCode(e.target.value);
          setError(null);
        }}
        invalid={!!error}
        errorId="two-factor-error-text"
        disabled={off}
        testId="two-factor-code"
      />
      <button type="submit" className="button button-primary button-block" disabled={off || !code.trim()} data-testid="two-factor-submit">
        {busy ? 'Verifying...' : 'Verify and sign in'}
      </button>
      <button type="button" className="button button-secondary button-block" onClick={cancel} disabled={busy} data-testid="two-factor-cancel">
        Back to sign in
      </button>
    </form>
  );
}
