// Landing, sign-up and login are for visitors: a signed-in user goes to the page they asked for
// before signing in, else /dashboard. A page that is itself finishing a sign-in keeps control.

import type { ReactElement, ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { returnPath } from '../lib/return-to';
import { selectAuthenticated, useAuthStore } from '../stores/useAuthStore';
import { FullPageSpinner } from './Spinner';

export function PublicOnly({ children }: { children: ReactNode }): ReactElement {
  const status = useAuthStore((s) => s.status);
  const authenticated = useAuthStore(selectAuthenticated);
  const redirectPending = useAuthStore((s) => s.redirectPending);
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner />;
  if (authenticated && !redirectPending) return <Navigate to={returnPath(location.state) ?? '/dashboard'} replace />;
  return <>{children}</>;
}
