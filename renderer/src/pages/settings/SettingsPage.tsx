// Settings (sign-in required); the profile, notification, security and preference tabs arrive with
// their issue.

import type { ReactElement } from 'react';
import { ScreenPlaceholder } from '../../layouts/ScreenPlaceholder';

export default function SettingsPage(): ReactElement {
  return (
    <ScreenPlaceholder title="Settings" testId="settings-page">
      <p>Profile, notifications, security and preferences will be managed here.</p>
    </ScreenPlaceholder>
  );
}
