// An on/off setting: a checkbox shown as a switch, named by its label and described by its hint.

import { useId, type ReactElement } from 'react';

export function Switch({
  label,
  hint,
  checked,
  onChange,
  disabled,
  testId,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
  testId: string;
}): ReactElement {
  const id = useId();
  return (
    <div className="switch-row">
      <label className="switch-text" htmlFor={id}>
        <strong>{label}</strong>
        {hint && <span id={`${id}-hint`}>{hint}</span>}
      </label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        data-testid={testId}
      />
    </div>
  );
}
