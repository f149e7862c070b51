// The labelled inputs of the identity editor: text, secret, select and textarea, each with its error,
// its hint and a "Fill in" flag while it still holds a `${env:NAME}` placeholder.

import type { ReactElement, ReactNode } from 'react';
import { IDENTITY_MESSAGES } from '../../../../shared/messages';
import { Field } from '../../components/Field';
import { SecretInput } from '../../components/SecretInput';
import { envNamesIn } from '../../lib/identity-form';

export function EnvFlag({ value }: { value: string }): ReactElement | null {
  const names = envNamesIn(value);
  if (!names.length) return null;
  return (
    <small className="env-flag" data-testid="env-flag">
      <span className="env-flag-badge">Fill in</span>
      {names.map((n) => IDENTITY_MESSAGES.fillIn(n)).join(' ')}
    </small>
  );
}

interface Common {
  label: string;
  value: string;
  onChange(value: string): void;
  testId: string;
  error?: string;
  hint?: ReactNode;
  disabled?: boolean;
}

export function TextInput({
  label,
  value,
  onChange,
  testId,
  error,
  hint,
  disabled,
  secret = false,
  placeholder,
  mono = false,
}: Common & { secret?: boolean; placeholder?: string; mono?: boolean }): ReactElement {
  return (
    <Field label={label} hint={hint} error={error} testId={testId}>
      {(props) => (
        <>
          {secret ? (
            <SecretInput {...props} label={label.toLowerCase()} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled} placeholder={placeholder} testId={testId} />
          ) : (
            <input
              {...props}
              type="text"
              className={mono ? 'mono' : undefined}
              value={value}
              onChange={(e) => onChange(e.target.value)}
              disabled={disabled}
              placeholder={placeholder}
              autoComplete="off"
              spellCheck={false}
              data-testid={testId}
            />
          )}
          <EnvFlag value={value} />
        </>
      )}
    </Field>
  );
}

export function TextArea({ label, value, onChange, testId, error, hint, disabled, rows = 4, placeholder }: Common & { rows?: number; placeholder?: string }): ReactElement {
  return (
    <Field label={label} hint={hint} error={error} testId={testId}>
      {(props) => (
        <>
          <textarea
            {...props}
            className="mono"
            rows={rows}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            disabled={disabled}
            placeholder={placeholder}
            spellCheck={false}
            data-testid={testId}
          />
          <EnvFlag value={value} />
        </>
      )}
    </Field>
  );
}

export function SelectInput<V extends string>({
  label,
  value,
  onChange,
  options,
  testId,
  error,
  hint,
  disabled,
}: Omit<Common, 'value' | 'onChange'> & { value: V; onChange(value: V): void; options: readonly { value: V; label: string }[] }): ReactElement {
  return (
    <Field label={label} hint={hint} error={error} testId={testId}>
      {(props) => (
        <select {...props} value={value} onChange={(e) => onChange(e.target.value as V)} disabled={disabled} data-testid={testId}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
