// Header of the public information pages: visitors get Home (landing), Login and Sign Up; signed-in
// users get the app navigation, their initial and name, a greeting and Logout.

import type { ReactElement } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { greeting } from '../../../shared/display';
import { selectAuthenticated, useAuthStore } from '../stores/useAuthStore';
import { Logo } from './Logo';
import { ThemeToggle } from './ThemeToggle';
import { UserMenu } from './UserMenu';

export const SIGNED_IN_NAV = [
  { to: '/home', label: 'Home' },
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/manage-apis', label: 'API Management' },
  { to: '/settings', label: 'Settings' },
] as const;

export function SiteHeader({ showGreeting = false }: { showGreeting?: boolean }): ReactElement {
  const authenticated = useAuthStore(selectAuthenticated);
  const firstName = useAuthStore((s) => s.user?.firstName);
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Logo to={authenticated ? '/home' : '/landing'} />
        {authenticated ? (
          <nav aria-label="Main" className="header-nav" data-testid="signed-in-nav">
            {SIGNED_IN_NAV.map((item) => (
              <NavLink key={item.to} to={item.to}>
                {item.label}
              </NavLink>
            ))}
          </nav>
        ) : (
          <nav aria-label="Main" className="header-nav" data-testid="visitor-nav">
            <Link to="/landing">Home</Link>
            <Link to="/login">Login</Link>
            <Link to="/signup" className="button button-primary button-small">
              Sign Up
            </Link>
          </nav>
        )}
        <div className="header-actions">
          <ThemeToggle />
          {authenticated && (
            <UserMenu
              greetingText={showGreeting ? `${greeting(new Date().getHours())}${firstName ? `, ${firstName}` : ''}` : undefined}
            />
          )}
        </div>
      </div>
    </header>
  );
}
