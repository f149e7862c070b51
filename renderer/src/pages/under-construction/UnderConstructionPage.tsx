// "Page Under Construction" with a link back to /dashboard (spec section 2); /public-templates shows it.

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { UNDER_CONSTRUCTION } from '../../../../shared/messages';
import { Icon } from '../../components/Icon';
import { SiteFooter } from '../../components/SiteFooter';
import { SiteHeader } from '../../components/SiteHeader';

export function UnderConstructionPage(): ReactElement {
  return (
    <div className="legal-page" data-testid="under-construction-page">
      <SiteHeader />
      <main id="main" className="container message-page">
        <span className="message-icon">
          <Icon name="tool" size={40} />
        </span>
        <h1>{UNDER_CONSTRUCTION.title}</h1>
        <p>We are still building this part of the app. Please check back soon.</p>
        <Link to="/dashboard" className="button button-primary" data-testid="back-to-dashboard">
          <Icon name="arrowLeft" size={18} />
          <span>Back to Dashboard</span>
        </Link>
      </main>
      <SiteFooter />
    </div>
  );
}
