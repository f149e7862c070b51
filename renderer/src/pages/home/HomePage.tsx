// Home (sign-in required): greeting by time of day; the rest of the screen arrives with its issue.

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { displayName, greeting } from '../../../../shared/display';
import { ScreenPlaceholder } from '../../layouts/ScreenPlaceholder';
import { useAuthStore } from '../../stores/useAuthStore';

export default function HomePage(): ReactElement {
  const user = useAuthStore((s) => s.user);
  return (
    <ScreenPlaceholder title={`${greeting(new Date().getHours())}, ${displayName(user)}`} testId="home-page">
      <p>
        Import an API and scan it against the OWASP API Security Top 10 from{' '}
        <Link to="/manage-apis">API Management</Link>.
      </p>
    </ScreenPlaceholder>
  );
}
