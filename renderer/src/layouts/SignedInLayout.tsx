// The frame of every signed-in screen (spec section 2): header with the app navigation, the user's
// initial and full name, the theme toggle and Logout; footer links; the transient notice. Loaded only
// after sign-in; the guard shows its spinner until the current user is known.

import { Suspense, useEffect, type ReactElement } from 'react';
import { Link, NavLink, Outlet } from 'react-router-dom';
import { PRODUCT_NAME } from '../../../shared/constants';
import { Logo } from '../components/Logo';
import { NoticeToast } from '../components/NoticeToast';
import { SIGNED_IN_NAV } from '../components/SiteHeader';
import { FullPageSpinner } from '../components/Spinner';
import { ThemeToggle } from '../components/ThemeToggle';
import { UserMenu } from '../components/UserMenu';
import { loadScanPage, preloadWhenIdle } from '../lib/page-chunks';
import { useAuthStore } from '../stores/useAuthStore';
import '../styles/app-shell.css';
import '../styles/app.css';

export default function SignedInLayout(): ReactElement {
  const user = useAuthStore((s) => s.user);
  useEffect(() => preloadWhenIdle(loadScanPage), []);
  return (
    <div className="app-shell" data-testid="signed-in-shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="site-header">
        <div className="container header-inner">
          <Logo to="/home" />
          <nav aria-label="Main" className="header-nav" data-testid="app-nav">
            {SIGNED_IN_NAV.map((item) => (
              <NavLink key={item.to} to={item.to}>
                {item.label}
              </NavLink>
            ))}
          </nav>
          <div className="header-actions">
            <ThemeToggle />
            <UserMenu />
          </div>
        </div>
      </header>
      <main id="main" className="container app-main">
        {user ? (
          <Suspense fallback={<FullPageSpinner />}>
            <Outlet />
          </Suspense>
        ) : (
          <FullPageSpinner />
        )}
      </main>
      <footer className="site-footer">
        <div className="container footer-inner">
          <span>© {new Date().getFullYear()} {PRODUCT_NAME}</span>
          <nav aria-label="Footer" className="footer-links">
            <Link to="/privacy">Privacy Policy</Link>
            <Link to="/terms">Terms of Service</Link>
            <Link to="/documentation">Documentation</Link>
            <Link to="/contact">Contact</Link>
          </nav>
        </div>
      </footer>
      <NoticeToast />
    </div>
  );
}
