// Home (spec section 2): greeting by time of day, a hero that leads to API Management, what Portcullis
// is, the four steps of a scan, and quick actions.

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { IMPORT_EXTENSIONS, PRODUCT_NAME } from '../../../../shared/constants';
import { displayName, greeting } from '../../../../shared/display';
import { Icon, type IconName } from '../../components/Icon';
import { LogoMark } from '../../components/Logo';
import { useAuthStore } from '../../stores/useAuthStore';

const WHAT_IS: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'shield',
    title: 'OWASP API Top 10 scanner',
    text: 'Every endpoint is tested against the OWASP API Security Top 10 (2023): object and function level authorization, authentication, resource consumption, SSRF, misconfiguration and more.',
  },
  {
    icon: 'key',
    title: 'Two-user authorization tests',
    text: 'Give a key for two users and the scan tries one user’s objects and functions with the other’s credentials: the way BOLA and BFLA are really found.',
  },
  {
    icon: 'fileText',
    title: 'Evidence you can replay',
    text: 'Each finding carries the request and response that prove it and a curl command, with a CVSS 3.1 score and a fix. Keys are redacted everywhere.',
  },
  {
    icon: 'server',
    title: 'Local first, team ready',
    text: `${PRODUCT_NAME} runs on your machine and can scan APIs on localhost. A team server shares APIs and results with View or Manage access.`,
  },
  {
    icon: 'calendar',
    title: 'Recurring scans',
    text: 'Schedule a daily, weekly or monthly scan of an API; it reuses the last scan’s configuration and keys.',
  },
  {
    icon: 'download',
    title: 'Reports for everyone',
    text: 'Executive and technical PDF reports, plus JSON, SARIF, JUnit and HTML exports for your pipelines and code-scanning tools.',
  },
];

const STEPS: { title: string; text: string }[] = [
  { title: 'Import your API', text: `Upload an OpenAPI 3, Swagger 2.0 or Postman collection, a HAR recording or a GraphQL schema (${IMPORT_EXTENSIONS.join(', ')}), type its endpoints, or introspect a GraphQL endpoint.` },
  { title: 'Choose a profile', text: 'Pick the OWASP API Top 10 profile and give one or two API keys; tune the checks per endpoint.' },
  { title: 'Run the tests', text: 'Start the scan and follow its progress; one scan runs at a time.' },
  { title: 'Get your results', text: 'Read findings by severity with evidence and fixes, then download the reports.' },
];

const ACTIONS: { to: string; icon: IconName; title: string; text: string; go: string; testId: string }[] = [
  { to: '/manage-apis', icon: 'upload', title: 'Import an API', text: 'Add a specification and run your first scan.', go: 'Go to API Management', testId: 'quick-import' },
  { to: '/dashboard', icon: 'barChart', title: 'View the dashboard', text: 'Scans this week, open vulnerabilities and recent activity.', go: 'Open the dashboard', testId: 'quick-dashboard' },
  { to: '/manage-apis', icon: 'fileText', title: 'Download reports', text: 'Open an API’s scan history to read a report or download its PDFs.', go: 'Find your reports', testId: 'quick-reports' },
];

export default function HomePage(): ReactElement {
  const user = useAuthStore((s) => s.user);
  return (
    <div data-testid="home-page">
      <section className="welcome-hero" aria-labelledby="home-title">
        <div>
          <p className="eyebrow">Your API security workspace</p>
          <h1 id="home-title" data-testid="home-greeting">
            {greeting(new Date().getHours())}, {displayName(user)}
          </h1>
          <p className="lead">
            Find the vulnerabilities in your APIs before someone else does. Import an API, scan it against the OWASP API
            Security Top 10 and get findings you can act on.
          </p>
          <div className="page-actions">
            <Link to="/manage-apis" className="button button-primary button-large" data-testid="home-manage-apis">
              <Icon name="shield" size={18} />
              Manage your APIs
            </Link>
            <Link to="/documentation" className="button button-secondary button-large">
              <Icon name="book" size={18} />
              Read the guides
            </Link>
          </div>
        </div>
        <div className="hero-gate" aria-hidden="true">
          <LogoMark size={160} />
        </div>
      </section>

      <section className="section-block" aria-labelledby="what-is-title">
        <h2 id="what-is-title">What is {PRODUCT_NAME}?</h2>
        <p className="section-lead">A desktop API security scanner for engineers who need to know whether their API leaks data or lets the wrong user in.</p>
        <div className="grid-3" data-testid="what-is-cards">
          {WHAT_IS.map((c) => (
            <article key={c.title} className="info-card">
              <span className="stat-icon">
                <Icon name={c.icon} size={22} />
              </span>
              <h3>{c.title}</h3>
              <p>{c.text}</p>
            </article>
          ))}
        </div>
      </section>

      <section className="section-block" aria-labelledby="steps-title">
        <h2 id="steps-title">How a scan works</h2>
        <p className="section-lead">Four steps from a specification to a report.</p>
        <ol className="numbered-steps" data-testid="home-steps">
          {STEPS.map((s, i) => (
            <li key={s.title}>
              <span className="step-badge" aria-hidden="true">
                {i + 1}
              </span>
              <h3>{s.title}</h3>
              <p>{s.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="section-block" aria-labelledby="actions-title">
        <h2 id="actions-title">Quick actions</h2>
        <div className="grid-3">
          {ACTIONS.map((a) => (
            <Link key={a.testId} to={a.to} className="action-card" data-testid={a.testId}>
              <span className="stat-icon tone-accent">
                <Icon name={a.icon} size={22} />
              </span>
              <h3>{a.title}</h3>
              <p>{a.text}</p>
              <span className="action-go">
                {a.go} <Icon name="arrowRight" size={16} />
              </span>
            </Link>
          ))}
        </div>
      </section>
    </div>
  );
}
