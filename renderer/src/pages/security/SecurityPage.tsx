// Security statement (spec section 2): static, last updated September 27, 2025; encryption, access
// control, infrastructure, application security, compliance, retention, incident response, recovery
// objectives (RTO 4 hours, RPO 1 hour) and a security contact.

import type { ReactElement } from 'react';
import { LEGAL_LAST_UPDATED, PRODUCT_NAME, SUPPORT_EMAIL } from '../../../../shared/constants';
import { Icon } from '../../components/Icon';
import { LegalLayout, type LegalSection } from '../../components/LegalLayout';
import { mailto } from '../../lib/mailto';

const P = PRODUCT_NAME;

const SECTIONS: LegalSection[] = [
  {
    id: 'encryption',
    title: 'Encryption',
    body: (
      <ul>
        <li>Passwords are hashed with scrypt using a per-user salt and OWASP-recommended cost; they are never stored or logged.</li>
        <li>Session tokens are random 256-bit values; only their SHA-256 hash is stored.</li>
        <li>
          Scan credentials are kept in the operating system keychain on the desktop, or encrypted with AES-256-GCM on a team
          server, and are redacted from logs, evidence and reports.
        </li>
        <li>
          Team servers are meant to run behind TLS (for example a reverse proxy), so every request and response is encrypted
          in transit; the desktop app talks to its own core over IPC and opens no port.
        </li>
      </ul>
    ),
  },
  {
    id: 'access-control',
    title: 'Access Control',
    body: (
      <ul>
        <li>
          Role-based access control: every API has an owner, and shared users get either View or Manage rights. The server
          checks these permissions on every request, not only in the interface.
        </li>
        <li>Multi-factor authentication with an authenticator app (TOTP) can be required for sign-in.</li>
        <li>Repeated failed sign-ins are throttled, and sessions expire after a period of inactivity you choose.</li>
      </ul>
    ),
  },
  {
    id: 'infrastructure',
    title: 'Infrastructure Security',
    body: (
      <p>
        The desktop application runs locally with a sandboxed, context-isolated interface and a strict Content Security
        Policy. Team servers bind to the loopback address unless configured otherwise, refuse to scan internal addresses by
        default to prevent server-side request forgery, and keep their data in a single database file with restricted file
        permissions.
      </p>
    ),
  },
  {
    id: 'application-security',
    title: 'Application Security',
    body: (
      <ul>
        <li>Imported specifications are parsed without fetching remote references or reading local files.</li>
        <li>Scans stay within the scope of the API&apos;s host and never follow redirects to other hosts.</li>
        <li>Every request is validated before it is processed, and errors never expose internal details.</li>
        <li>Dependencies are pinned and reviewed, and the code is tested against deliberately vulnerable targets.</li>
      </ul>
    ),
  },
  {
    id: 'compliance',
    title: 'Compliance Frameworks',
    body: (
      <p>
        Our checks follow the OWASP API Security Top 10 (2023), findings are scored with CVSS 3.1 and can be exported as
        SARIF 2.1.0. We handle personal information in line with the Protection of Personal Information Act (POPIA) and the
        principles of the GDPR.
      </p>
    ),
  },
  {
    id: 'data-retention',
    title: 'Data Retention',
    body: (
      <ul>
        <li>Scan data: 12 months.</li>
        <li>Audit logs: 7 years.</li>
        <li>Account data: for the life of the account plus 30 days.</li>
      </ul>
    ),
  },
  {
    id: 'incident-response',
    title: 'Incident Response',
    body: (
      <p>
        We keep a documented incident response process: detect, contain, eradicate, recover and review. Security reports
        are acknowledged within 24 hours, and customers affected by an incident are informed promptly with what happened and
        what to do.
      </p>
    ),
  },
  {
    id: 'recovery-objectives',
    title: 'Recovery Objectives',
    body: (
      <dl className="facts">
        <div>
          <dt>Recovery Time Objective (RTO)</dt>
          <dd>4 hours</dd>
        </div>
        <div>
          <dt>Recovery Point Objective (RPO)</dt>
          <dd>1 hour</dd>
        </div>
      </dl>
    ),
  },
  {
    id: 'security-contact',
    title: 'Security Contact',
    body: (
      <p>
        Found a vulnerability in {P}? Please report it privately to <a href={mailto(SUPPORT_EMAIL, '[SECURITY] Vulnerability report')}>{SUPPORT_EMAIL}</a>{' '}
        with the subject tag [SECURITY]. We acknowledge reports within 24 hours and will keep you informed until the issue is
        fixed. Please do not disclose it publicly before then.
      </p>
    ),
  },
];

export function SecurityPage(): ReactElement {
  return (
    <LegalLayout
      title="Security Statement"
      updated={LEGAL_LAST_UPDATED}
      testId="security-page"
      intro={
        <p>
          {P} is a security tool, and we hold ourselves to the standard we test others against. This statement describes how
          we protect your account, your APIs and your scan results.
        </p>
      }
      actions={
        <a className="button button-secondary" href={mailto(SUPPORT_EMAIL, '[SECURITY] Vulnerability report')} data-testid="security-email">
          <Icon name="shield" size={18} />
          <span>Report a vulnerability</span>
        </a>
      }
      sections={SECTIONS}
      related={[
        { to: '/privacy', label: 'Privacy Policy' },
        { to: '/terms', label: 'Terms of Service' },
        { to: '/contact', label: 'Contact' },
      ]}
    />
  );
}
