// A labelled input with an optional hint; the hint and the field's error are tied to it for
// assistive technology.

import { useId, type InputHTMLAttributes, type ReactElement } from 'react';

export interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: string;
  /** The field's current error, if it is the one being reported. */
  invalid?: boolean;
  errorId?: string;
  testId: string;
}

export function FormField({ label, hint, invalid, errorId, testId, id, ...input }: FormFieldProps): ReactElement {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const describedBy = [hintId, invalid ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${invalid ? ' field-invalid' : ''}`}>
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} aria-invalid={invalid || undefined} aria-describedby={describedBy} data-testid={testId} {...input} />
      {hint && (
        <small id={hintId} className="field-hint">
          {hint}
        </small>
      )}
    </div>
  );
}
