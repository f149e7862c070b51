// A secret (token, password, client secret) typed into a form: masked, with a button that shows it.
// Never offered to the browser's password manager.

import { useState, type InputHTMLAttributes, type ReactElement } from 'react';
import { Icon } from './Icon';

export function SecretInput({
  label,
  testId,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  /** What the secret is, for the show button's name ("Show password"). */
  label: string;
  testId: string;
}): ReactElement {
  const [shown, setShown] = useState(false);
  return (
    <div className="secret-input">
      <input {...input} type={shown ? 'text' : 'password'} autoComplete="new-password" spellCheck={false} data-testid={testId} />
      <button
        type="button"
        className="secret-toggle"
        onClick={() => setShown((s) => !s)}
        aria-pressed={shown}
        aria-label={`${shown ? 'Hide' : 'Show'} ${label}`}
        title={shown ? 'Hide' : 'Show'}
        disabled={input.disabled}
        data-testid={`${testId}-show`}
      >
        <Icon name={shown ? 'eyeOff' : 'eye'} size={16} />
      </button>
    </div>
  );
}
