// A secret (token, password, client secret) typed into a form: masked, with a button that shows it.
// Never offered to the browser's password manager. A secret the server keeps (KEPT_SECRET, from a saved
// identity setup) shows empty with a placeholder that says so; typing replaces it.

import { useState, type InputHTMLAttributes, type ReactElement } from 'react';
import { KEPT_SECRET } from '../../../shared/identities';
import { IDENTITY_MESSAGES } from '../../../shared/messages';
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
  const kept = input.value === KEPT_SECRET;
  return (
    <div className="secret-input">
      <input
        {...input}
        {...(kept ? { value: '', placeholder: IDENTITY_MESSAGES.keptPlaceholder, 'data-kept': 'true' } : {})}
        type={shown ? 'text' : 'password'}
        autoComplete="new-password"
        spellCheck={false}
        data-testid={testId}
      />
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
