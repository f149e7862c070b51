// A signed-in screen whose content arrives with its own issue: its title and what it will hold.

import type { ReactElement, ReactNode } from 'react';

export function ScreenPlaceholder({ title, testId, children }: { title: string; testId: string; children: ReactNode }): ReactElement {
  return (
    <section className="screen" data-testid={testId} aria-labelledby={`${testId}-title`}>
      <h1 id={`${testId}-title`}>{title}</h1>
      <div className="screen-body">{children}</div>
    </section>
  );
}
