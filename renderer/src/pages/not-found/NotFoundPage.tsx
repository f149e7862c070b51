// Any unknown path, shown inside the sign-in guard (spec section 2).

import type { ReactElement } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ScreenPlaceholder } from '../../layouts/ScreenPlaceholder';

export default function NotFoundPage(): ReactElement {
  const { pathname } = useLocation();
  return (
    <ScreenPlaceholder title="Page not found" testId="not-found-page">
      <p>
        There is no page at <code>{pathname}</code>.
      </p>
      <p>
        <Link to="/dashboard" className="button button-primary">
          Go to Dashboard
        </Link>
      </p>
    </ScreenPlaceholder>
  );
}
