// Terms of Service (spec section 2): 15 sections, last updated September 27, 2025, governed by the law
// of South Africa, with a button that opens an email draft to the support address.

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { LEGAL_LAST_UPDATED, PRODUCT_NAME, SUPPORT_EMAIL } from '../../../../shared/constants';
import { Icon } from '../../components/Icon';
import { LegalLayout, type LegalSection } from '../../components/LegalLayout';
import { mailto } from '../../lib/mailto';

const P = PRODUCT_NAME;

const SECTIONS: LegalSection[] = [
  {
    id: 'acceptance',
    title: 'Acceptance of Terms',
    body: (
      <p>
        By creating an account, installing the desktop application or using a {P} team server you agree to these Terms
        of Service and to our <Link to="/privacy">Privacy Policy</Link>. If you use {P} on behalf of an organisation, you
        confirm that you may accept these terms for it. If you do not agree, do not use the service.
      </p>
    ),
  },
  {
    id: 'service',
    title: 'Description of the Service',
    body: (
      <p>
        {P} is an API security testing tool. It imports API descriptions (OpenAPI/Swagger specifications, Postman
        collections or endpoints entered by hand), sends test requests to those APIs against the OWASP API Security Top
        10 profile, records findings with evidence, produces reports, runs scheduled scans and lets you share APIs with
        other users.
      </p>
    ),
  },
  {
    id: 'eligibility',
    title: 'Eligibility',
    body: (
      <p>
        You must be at least 18 years old to use {P}, or have the consent of a parent or legal guardian who accepts these
        terms on your behalf. You must not use the service if the law of your country forbids it.
      </p>
    ),
  },
  {
    id: 'accounts',
    title: 'Your Account',
    body: (
      <ul>
        <li>Give accurate registration details and keep them up to date.</li>
        <li>Keep your password and sign-in tokens secret; you are responsible for everything done with your account.</li>
        <li>Tell us straight away at {SUPPORT_EMAIL} if you suspect unauthorised use of your account.</li>
      </ul>
    ),
  },
  {
    id: 'authorized-testing',
    title: 'Authorised Testing Only',
    body: (
      <>
        <p>
          Security testing sends requests that may change data, trigger alerts or put load on the target. You may scan an
          API only if you own it or hold written permission from its owner to test it, and only within the scope of that
          permission.
        </p>
        <p>
          Scanning systems without authorisation may be a criminal offence, including under South Africa&apos;s
          Cybercrimes Act 19 of 2020. You alone are responsible for the targets you choose.
        </p>
      </>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable Use',
    body: (
      <ul>
        <li>Do not use {P} to attack, disrupt or gain unauthorised access to any system.</li>
        <li>Do not try to break, probe or overload the {P} service itself outside a coordinated disclosure.</li>
        <li>Do not upload malware, unlawful content, or data you have no right to process.</li>
        <li>Do not resell or sublicense the service without our written agreement.</li>
      </ul>
    ),
  },
  {
    id: 'your-data',
    title: 'Your Data and Content',
    body: (
      <p>
        You keep all rights to the API descriptions, credentials, scan results and reports you create. You give us only
        the permission needed to store and process them to run the service for you. Scan credentials are stored encrypted
        and are never written into reports. How we handle personal information is described in the{' '}
        <Link to="/privacy">Privacy Policy</Link>.
      </p>
    ),
  },
  {
    id: 'intellectual-property',
    title: 'Intellectual Property',
    body: (
      <p>
        {P}, its software, check catalogue, report templates and brand are owned by us or our licensors and are protected
        by law. These terms give you a personal, non-exclusive, non-transferable right to use the service; they do not
        transfer any ownership.
      </p>
    ),
  },
  {
    id: 'third-party',
    title: 'Third-Party Services',
    body: (
      <p>
        Some features rely on services we do not control, such as an identity provider for social sign-in or an email
        provider for password-reset messages. Their own terms apply to your use of them, and we are not responsible for
        their availability or conduct.
      </p>
    ),
  },
  {
    id: 'availability',
    title: 'Service Availability and Changes',
    body: (
      <p>
        We work to keep the service available and correct but do not promise uninterrupted operation. We may change, add
        or remove features; where a change materially reduces what you can do, we will tell you in advance when we
        reasonably can.
      </p>
    ),
  },
  {
    id: 'disclaimer',
    title: 'Disclaimer of Warranties',
    body: (
      <p>
        The service is provided &quot;as is&quot; and &quot;as available&quot;. Automated testing cannot find every
        vulnerability: a scan with no findings does not prove an API is secure, and findings should be reviewed by a
        qualified person before you act on them. To the extent the law allows, we disclaim all implied warranties.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Limitation of Liability',
    body: (
      <p>
        To the extent the law allows, we are not liable for indirect, incidental, special or consequential loss, or for
        loss of data, profit or business, arising from your use of the service or from tests you run. Our total liability
        for any claim is limited to the amount you paid us for the service in the 12 months before the claim arose.
      </p>
    ),
  },
  {
    id: 'termination',
    title: 'Termination',
    body: (
      <p>
        You may stop using the service and close your account at any time. We may suspend or close an account that breaks
        these terms, in particular the rules on authorised testing. When an account closes, its data is deleted as
        described in the <Link to="/privacy">Privacy Policy</Link>.
      </p>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing Law',
    body: (
      <p>
        These terms are governed by the law of the Republic of South Africa. Any dispute that cannot be settled between us
        falls under the jurisdiction of the courts of South Africa, without limiting any mandatory consumer rights you
        have where you live.
      </p>
    ),
  },
  {
    id: 'changes-contact',
    title: 'Changes to These Terms and Contact',
    body: (
      <p>
        We may update these terms; the date at the top shows the latest version, and material changes will be announced
        before they take effect. Continuing to use the service after that means you accept the new terms. Questions about
        these terms go to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>; we aim to reply within 48 hours.
      </p>
    ),
  },
];

export function TermsPage(): ReactElement {
  return (
    <LegalLayout
      title="Terms of Service"
      updated={LEGAL_LAST_UPDATED}
      testId="terms-page"
      intro={
        <p>
          These terms govern your use of {P}, the API security testing application, its desktop app and team server.
          Please read them carefully, especially the rules on authorised testing.
        </p>
      }
      actions={
        <a
          className="button button-secondary"
          href={mailto(SUPPORT_EMAIL, '[LEGAL] Question about the Terms of Service')}
          data-testid="terms-email"
        >
          <Icon name="mail" size={18} />
          <span>Email us about these terms</span>
        </a>
      }
      sections={SECTIONS}
      related={[
        { to: '/landing', label: 'Home' },
        { to: '/login', label: 'Login' },
        { to: '/signup', label: 'Create an account' },
        { to: '/privacy', label: 'Privacy Policy' },
      ]}
    />
  );
}
