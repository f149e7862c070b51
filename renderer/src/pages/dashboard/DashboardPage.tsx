// Dashboard (sign-in required). Its statistics, chart and recent scans arrive with the dashboard issue.

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { displayName } from '../../../../shared/display';
import { ScreenPlaceholder } from '../../layouts/ScreenPlaceholder';
import { useAuthStore } from '../../stores/useAuthStore';

export default function DashboardPage(): ReactElement {
  const user = useAuthStore((s) => s.user);
  return (
    <ScreenPlaceholder title="Dashboard" testId="dashboard-page">
      <p>
        Signed in as <strong data-testid="dashboard-user">{displayName(user)}</strong>. Your scan statistics and recent
        activity will appear here.
      </p>
      <p>
        <Link to="/manage-apis">Go to API Management</Link>
      </p>
    </ScreenPlaceholder>
  );
}
