// A figure with its label; given onToggle it is a button that filters (aria-pressed shows the state).

import type { ReactElement, ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

export function StatCard({
  label,
  value,
  icon,
  tone,
  hint,
  testId,
  pressed,
  onToggle,
}: {
  label: string;
  value: ReactNode;
  icon: IconName;
  tone?: 'danger' | 'accent' | 'warning';
  hint?: string;
  testId: string;
  pressed?: boolean;
  onToggle?(): void;
}): ReactElement {
  const body = (
    <>
      <span className={`stat-icon${tone ? ` tone-${tone}` : ''}`}>
        <Icon name={icon} size={22} />
      </span>
      <span>
        <span className="stat-label">{label}</span>
        <span className="stat-value" data-testid={`${testId}-value`}>
          {value}
        </span>
        {hint && <span className="stat-hint">{hint}</span>}
      </span>
    </>
  );
  if (onToggle) {
    return (
      <button type="button" className="stat-card" aria-pressed={!!pressed} onClick={onToggle} data-testid={testId}>
        {body}
      </button>
    );
  }
  return (
    <div className="stat-card" data-testid={testId}>
      {body}
    </div>
  );
}
