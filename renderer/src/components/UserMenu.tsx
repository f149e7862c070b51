// Signed-in identity in a header: the initial, the name, and Logout (with the spec's confirmation,
// then /login replacing the current history entry).

import type { ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { displayName, initials } from '../../../shared/display';
import { LOGIN_MESSAGES } from '../../../shared/messages';
import { useAuthStore } from '../stores/useAuthStore';
import { Icon } from './Icon';

export function UserMenu({ greetingText }: { greetingText?: string }): ReactElement | null {
  const user = useAuthStore((s) => s.user);
  const logout = useAuthStore((s) => s.logout);
  const navigate = useNavigate();
  if (!user) return null;

  const onLogout = () => {
    if (!window.confirm(LOGIN_MESSAGES.logoutConfirm)) return;
    logout();
    navigate('/login', { replace: true });
  };

  return (
    <div className="user-menu">
      <span className="avatar" aria-hidden="true" title={displayName(user)} data-testid="user-initial">
        {initials(user)}
      </span>
      <span className="user-name">
        {greetingText && <span className="user-greeting" data-testid="user-greeting">{greetingText}</span>}
        <span data-testid="user-name">{displayName(user)}</span>
      </span>
      <button type="button" className="button button-ghost button-small" onClick={onLogout} data-testid="logout-button">
        <Icon name="logout" size={16} />
        <span>Logout</span>
      </button>
    </div>
  );
}
