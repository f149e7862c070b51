// Footer of the public pages.

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '../../../shared/constants';
import { LogoMark } from './Logo';

export function SiteFooter(): ReactElement {
  return (
    <footer className="site-footer" data-testid="site-footer">
      <div className="container footer-inner">
        <div className="footer-brand">
          <LogoMark size={22} />
          <span>
            © {new Date().getFullYear()} {PRODUCT_NAME}. API security testing against the OWASP API Security Top 10.
          </span>
        </div>
        <nav aria-label="Footer" className="footer-links">
          <Link to="/privacy">Privacy Policy</Link>
          <Link to="/terms">Terms of Service</Link>
          <Link to="/security">Security</Link>
          <Link to="/contact">Contact</Link>
        </nav>
      </div>
    </footer>
  );
}
