// Privacy policy (spec section 2): 13 sections with the one being read highlighted; signed-in users see
// the app navigation, their initial, a greeting and Logout; visitors see Home, Login and Sign Up.

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { LEGAL_LAST_UPDATED, PRODUCT_NAME, SUPPORT_EMAIL } from '../../../../shared/constants';
import { Icon } from '../../components/Icon';
import { LegalLayout, type LegalSection } from '../../components/LegalLayout';
import { mailto } from '../../lib/mailto';

const P = PRODUCT_NAME;

const SECTIONS: LegalSection[] = [
  {
    id: 'information-we-collect',
    title: 'Information We Collect',
    body: (
      <ul>
        <li>
          <strong>Account information:</strong> your name, email address, username and, if you add it, your company, role
          and other profile details.
        </li>
        <li>
          <strong>API and scan data:</strong> the API descriptions you import, endpoint settings, the credentials you give
          for scans (stored encrypted), scan results, findings and reports.
        </li>
        <li>
          <strong>Usage data:</strong> which features you use, when scans run and how long they take.
        </li>
        <li>
          <strong>Technical data:</strong> IP address, browser or app version and sign-in times, kept to protect your
          account.
        </li>
      </ul>
    ),
  },
  {
    id: 'how-we-use',
    title: 'How We Use Your Information',
    body: (
      <ul>
        <li>To run the service: import your APIs, run scans, produce reports and send the notifications you ask for.</li>
        <li>To secure your account: authenticate you, detect abuse and investigate incidents.</li>
        <li>To improve {P}: understand which features are used and where scans fail.</li>
        <li>To answer your support requests. We do not sell your data or use it for advertising.</li>
      </ul>
    ),
  },
  {
    id: 'data-security',
    title: 'Data Security',
    body: (
      <p>
        Passwords are stored only as salted scrypt hashes, session tokens only as hashes, and scan credentials are kept in
        the operating system keychain or encrypted with AES-256-GCM. Access to data is limited to the account that owns it
        and the users it is shared with. See our <Link to="/security">Security Statement</Link> for details.
      </p>
    ),
  },
  {
    id: 'information-sharing',
    title: 'Information Sharing',
    body: (
      <p>
        We share your information only with users you choose to share an API with, with service providers who process it
        for us under contract (for example, an email provider for password-reset messages), or when the law requires it.
        Shared users see the API, its endpoints and its scan results, never your password.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your Rights',
    body: (
      <p>
        You may ask to see, correct, export or delete your personal information, object to its processing, or withdraw a
        consent you gave. Most profile details can be changed in Settings. Send other requests to {SUPPORT_EMAIL}; we
        answer them within 30 days.
      </p>
    ),
  },
  {
    id: 'data-retention',
    title: 'Data Retention',
    body: (
      <ul>
        <li>Scan data and reports are kept for 12 months, unless you delete them sooner.</li>
        <li>Account data is kept while your account is open and deleted 2 years after it is closed.</li>
        <li>Support communications are kept for 3 years.</li>
      </ul>
    ),
  },
  {
    id: 'international-transfers',
    title: 'International Data Transfers',
    body: (
      <p>
        When you use a hosted {P} server, your data may be processed in a country other than your own. We transfer personal
        information only where the receiving country or contractual safeguards give it protection comparable to the
        Protection of Personal Information Act (POPIA).
      </p>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies and Local Storage',
    body: (
      <p>
        {P} does not use advertising or tracking cookies. The app keeps your sign-in token, your user id and your theme
        choice (dark or light) in your browser&apos;s local storage so you stay signed in and see the theme you picked.
        Signing out removes the token.
      </p>
    ),
  },
  {
    id: 'third-party-services',
    title: 'Third-Party Services',
    body: (
      <p>
        If you sign in with an identity provider such as Google, that provider shares your name, email address and profile
        picture with us under its own privacy policy. The APIs you scan are your own or your client&apos;s; what they do with
        the test requests they receive is governed by their owners.
      </p>
    ),
  },
  {
    id: 'children',
    title: "Children's Privacy",
    body: (
      <p>
        {P} is a professional tool and is not meant for children. You must be at least 16 years old to use it, and we do not
        knowingly collect information about anyone younger. If you believe a child has given us personal information,
        contact us and we will delete it.
      </p>
    ),
  },
  {
    id: 'breach-notification',
    title: 'Data Breach Notification',
    body: (
      <p>
        If a security breach affects your personal information, we will notify you and the competent regulator within 72
        hours of becoming aware of it, describing what happened, what data was involved and what you can do.
      </p>
    ),
  },
  {
    id: 'policy-changes',
    title: 'Changes to This Policy',
    body: (
      <p>
        We may update this policy as the product changes. The date at the top shows the latest version; material changes
        are announced in the app or by email before they take effect.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact Us',
    body: (
      <p>
        For any privacy question or request, write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or use the
        button at the top of this page. We aim to reply within 48 hours.
      </p>
    ),
  },
];

export function PrivacyPage(): ReactElement {
  return (
    <LegalLayout
      title="Privacy Policy"
      updated={LEGAL_LAST_UPDATED}
      testId="privacy-page"
      showGreeting
      intro={
        <p>
          This policy explains what information {P} collects when you use the application, why, how long we keep it and the
          choices you have.
        </p>
      }
      actions={
        <a
          className="button button-secondary"
          href={mailto(
            SUPPORT_EMAIL,
            'Privacy Inquiry',
            'Hello,\n\nI have a question about how my personal information is handled:\n\n',
          )}
          data-testid="privacy-email"
        >
          <Icon name="mail" size={18} />
          <span>Email a privacy question</span>
        </a>
      }
      sections={SECTIONS}
      related={[
        { to: '/terms', label: 'Terms of Service' },
        { to: '/security', label: 'Security Statement' },
        { to: '/contact', label: 'Contact' },
      ]}
    />
  );
}
