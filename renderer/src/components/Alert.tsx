// Inline messages: errors are announced at once, successes and notes politely.

import type { ReactElement, ReactNode } from 'react';

export function Alert({
  kind,
  children,
  testId,
}: {
  kind: 'error' | 'success' | 'info';
  children: ReactNode;
  testId?: string;
}): ReactElement {
  return (
    <div className={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}
