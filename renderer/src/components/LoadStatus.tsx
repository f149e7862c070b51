// What a screen or modal that fetches before it can show anything says meanwhile: a spinner while
// loading, the failure's message once it failed, nothing when ready.

import type { ReactElement } from 'react';
import { Alert } from './Alert';
import { Spinner } from './Spinner';

/** A fetch's state; `T` is what a ready state carries. */
export type Loadable<T extends object = object> = { kind: 'loading' } | { kind: 'error'; message: string } | ({ kind: 'ready' } & T);

export function LoadStatus({
  load,
  label,
  errorTestId,
  loadingTestId,
}: {
  load: Loadable;
  /** What is loading, for screen readers ("Loading schedule"). */
  label: string;
  errorTestId: string;
  loadingTestId?: string;
}): ReactElement | null {
  if (load.kind === 'loading')
    return (
      <div className="loading-block" data-testid={loadingTestId}>
        <Spinner label={label} />
      </div>
    );
  if (load.kind === 'error')
    return (
      <Alert kind="error" testId={errorTestId}>
        {load.message}
      </Alert>
    );
  return null;
}
