// API Management (sign-in required); the API list and its modals arrive with their issue.

import type { ReactElement } from 'react';
import { ScreenPlaceholder } from '../../layouts/ScreenPlaceholder';

export default function ManageApisPage(): ReactElement {
  return (
    <ScreenPlaceholder title="API Management" testId="manage-apis-page">
      <p>Your imported APIs, their scans and reports will be listed here.</p>
    </ScreenPlaceholder>
  );
}
