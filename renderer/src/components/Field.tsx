// A labelled control (input, select or textarea) with an optional hint and its error message, all tied
// to the control for assistive technology.

import { useId, type ReactElement, type ReactNode } from 'react';

export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export function Field({
  label,
  hint,
  error,
  children,
  testId,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  children(props: ControlProps): ReactNode;
  /** Names the error element `${testId}-error`. */
  testId: string;
}): ReactElement {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': describedBy, ...(error ? { 'aria-invalid': true as const } : {}) })}
      {error && (
        <small id={errorId} className="field-error" data-testid={`${testId}-error`}>
          {error}
        </small>
      )}
      {hint && (
        <small id={hintId} className="field-hint">
          {hint}
        </small>
      )}
    </div>
  );
}

/** First message per field of a list of validation errors. */
export function errorsByField(errors: { field: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) if (e.field && !(e.field in out)) out[e.field] = e.message;
  return out;
}
