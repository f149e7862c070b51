// The sign-in guard: a spinner while the stored session is checked, /login (remembering where the
// user was going) when nobody is signed in, else the signed-in routes.

import { Suspense, type ReactElement } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { selectAuthenticated, useAuthStore } from '../stores/useAuthStore';
import { FullPageSpinner } from './Spinner';

export function RequireAuth(): ReactElement {
  const status = useAuthStore((s) => s.status);
  const authenticated = useAuthStore(selectAuthenticated);
  const signedOutBy = useAuthStore((s) => s.signedOutBy);
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner />;
  if (!authenticated) {
    // After Logout the user goes to /login with nothing to return to.
    if (signedOutBy === 'logout') return <Navigate to="/login" replace />;
    return <Navigate to="/login" replace state={{ from: location }} />;
  }
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Outlet />
    </Suspense>
  );
}
