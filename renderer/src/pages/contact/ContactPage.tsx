// Contact (spec sections 2 and 9): one mailto link per topic, each subject tagged ([SUPPORT],
// [SECURITY], ...), with the response time of each topic and the support hours.

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { CONTACT_TAGS, PRODUCT_NAME, SUPPORT_EMAIL } from '../../../../shared/constants';
import { Icon, type IconName } from '../../components/Icon';
import { SiteFooter } from '../../components/SiteFooter';
import { SiteHeader } from '../../components/SiteHeader';
import { mailto } from '../../lib/mailto';
import '../../styles/legal.css';

type ContactTag = (typeof CONTACT_TAGS)[number];

const TOPICS: Record<ContactTag, { title: string; text: string; subject: string; response: string; action: string; icon: IconName }> = {
  SUPPORT: {
    title: 'Customer support',
    text: 'Help with your account, signing in, or using the app.',
    subject: 'Support request',
    response: '2-3 business days',
    action: 'Email support',
    icon: 'mail',
  },
  TECHNICAL: {
    title: 'Technical issues',
    text: 'Imports that fail, scans that stall, reports that look wrong.',
    subject: 'Technical issue',
    response: '24-48 hours',
    action: 'Report a technical issue',
    icon: 'tool',
  },
  SECURITY: {
    title: 'Report a vulnerability',
    text: `A security problem in ${PRODUCT_NAME} itself. Please report it privately.`,
    subject: 'Vulnerability report',
    response: 'Within 24 hours',
    action: 'Report a vulnerability',
    icon: 'shield',
  },
  FEATURE: {
    title: 'Feature requests',
    text: 'A check, an import format or a report you would like to see.',
    subject: 'Feature request',
    response: '3-5 business days',
    action: 'Suggest a feature',
    icon: 'zap',
  },
  BUSINESS: {
    title: 'Business & partnerships',
    text: 'Team plans, procurement, partnerships and resellers.',
    subject: 'Business enquiry',
    response: '2-3 business days',
    action: 'Contact our business team',
    icon: 'layers',
  },
  LEGAL: {
    title: 'Legal & privacy',
    text: 'Questions about the terms, the privacy policy or your data.',
    subject: 'Legal enquiry',
    response: '2-3 business days',
    action: 'Ask a legal question',
    icon: 'fileText',
  },
  GENERAL: {
    title: 'General questions',
    text: 'Anything else you would like to ask us.',
    subject: 'General question',
    response: '2-3 business days',
    action: 'Ask a question',
    icon: 'mail',
  },
  URGENT: {
    title: 'Emergencies',
    text: 'An active incident or an outage that blocks your work.',
    subject: 'Urgent: ',
    response: 'Within 4 hours',
    action: 'Report an emergency',
    icon: 'activity',
  },
  FEEDBACK: {
    title: 'Feedback',
    text: 'Tell us what works well and what does not.',
    subject: 'Feedback',
    response: '2-3 business days',
    action: 'Send feedback',
    icon: 'target',
  },
};

export function ContactPage(): ReactElement {
  return (
    <div className="legal-page" data-testid="contact-page">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="container legal-main">
        <div className="legal-hero">
          <h1>Contact us</h1>
          <div className="legal-intro">
            <p>
              Pick the topic that fits best: each link opens an email to {SUPPORT_EMAIL} with a tagged subject so it reaches
              the right people quickly.
            </p>
            <p className="support-hours" data-testid="support-hours">
              <Icon name="clock" size={18} /> Support hours: Monday to Friday, 09:00-17:00 (UTC+2)
            </p>
          </div>
        </div>
        <ul className="contact-grid">
          {CONTACT_TAGS.map((tag) => {
            const t = TOPICS[tag];
            return (
              <li key={tag} className="contact-card">
                <div className="contact-card-head">
                  <span className="feature-icon">
                    <Icon name={t.icon} size={22} />
                  </span>
                  <span className="tag" title="Subject tag">
                    [{tag}]
                  </span>
                </div>
                <h2>{t.title}</h2>
                <p>{t.text}</p>
                <p className="contact-response">
                  Response: <strong>{t.response}</strong>
                </p>
                <a href={mailto(SUPPORT_EMAIL, `[${tag}] ${t.subject}`)} className="contact-link" data-testid={`contact-${tag}`}>
                  {t.action}
                </a>
              </li>
            );
          })}
        </ul>
        <nav className="legal-related" aria-label="Related pages" data-testid="contact-links">
          <Link to="/landing">Home</Link>
          <Link to="/login">Login</Link>
          <Link to="/signup">Create an account</Link>
          <Link to="/documentation">Documentation</Link>
          <Link to="/privacy">Privacy Policy</Link>
          <Link to="/terms">Terms of Service</Link>
        </nav>
      </main>
      <SiteFooter />
    </div>
  );
}
