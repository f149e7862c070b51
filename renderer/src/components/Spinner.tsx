// Loading indicators: the guard's full-page spinner and an inline one.

import type { ReactElement } from 'react';
import { LOADING_TEXT } from '../../../shared/messages';

export function Spinner({ label = LOADING_TEXT }: { label?: string }): ReactElement {
  return (
    <span className="spinner-wrap" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}

export function FullPageSpinner(): ReactElement {
  return (
    <div className="full-page-spinner" data-testid="loading-spinner">
      <Spinner />
    </div>
  );
}
