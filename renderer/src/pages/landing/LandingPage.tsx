// The landing page (spec section 2): header anchors, hero, live platform activity, stats strip,
// features, how it works, call to action and footer; sections animate in on scroll.

import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { LANDING_FALLBACK_STATS, PRODUCT_NAME } from '../../../../shared/constants';
import type { PlatformStats } from '../../../../shared/contract';
import { getPlatformStats } from '../../api/stats';
import { Icon, type IconName } from '../../components/Icon';
import { Logo } from '../../components/Logo';
import { SiteFooter } from '../../components/SiteFooter';
import { ThemeToggle } from '../../components/ThemeToggle';
import { useReveal } from '../../hooks/useReveal';
import '../../styles/landing.css';

type Figures = Record<keyof PlatformStats, string>;

const format = (n: number): string => new Intl.NumberFormat('en-US').format(n);

/** Live figures from /api/stats/platform; the spec's fallback figures when the call fails. */
function usePlatformStats(): { figures: Figures | null; live: boolean } {
  const [state, setState] = useState<{ figures: Figures | null; live: boolean }>({ figures: null, live: false });
  useEffect(() => {
    const controller = new AbortController();
    getPlatformStats(controller.signal)
      .then((res) => {
        const d = res.ok ? res.data : undefined;
        const valid = d && [d.vulnerabilitiesFound, d.apisSecured, d.scansToday].every((v) => Number.isFinite(v));
        if (!valid) throw new Error('no stats');
        setState({
          live: true,
          figures: {
            vulnerabilitiesFound: format(d.vulnerabilitiesFound),
            apisSecured: format(d.apisSecured),
            scansToday: format(d.scansToday),
          },
        });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ live: false, figures: { ...LANDING_FALLBACK_STATS } });
      });
    return () => controller.abort();
  }, []);
  return state;
}

const ACTIVITY: { key: keyof PlatformStats; label: string; icon: IconName }[] = [
  { key: 'vulnerabilitiesFound', label: 'Vulnerabilities Found', icon: 'bug' },
  { key: 'apisSecured', label: 'APIs Secured', icon: 'shieldCheck' },
  { key: 'scansToday', label: 'Scans Today', icon: 'activity' },
];

const STRIP: { value: string; label: string; icon: IconName }[] = [
  { value: 'Fast', label: 'Setup', icon: 'zap' },
  { value: 'OWASP', label: 'Compliant', icon: 'shieldCheck' },
  { value: 'Complete', label: 'Coverage', icon: 'layers' },
  { value: '5min', label: 'Quick Start', icon: 'clock' },
];

const FEATURES: { title: string; text: string; icon: IconName; points: string[] }[] = [
  {
    icon: 'upload',
    title: 'Import any API',
    text: 'Bring an OpenAPI or Swagger spec, a Postman collection, or type the endpoints in by hand.',
    points: ['OpenAPI 3.0 / 3.1 and Swagger 2.0', 'Postman Collection v2.x', 'Manual endpoints for anything else'],
  },
  {
    icon: 'target',
    title: 'OWASP API Top 10 scanning',
    text: 'Every endpoint is tested against the OWASP API Security Top 10 (2023) with two user credentials, so cross-user flaws show up.',
    points: ['Broken object and function level authorization', 'Authentication, SSRF and misconfiguration', 'Scope control: only your API host is touched'],
  },
  {
    icon: 'fileText',
    title: 'Reports you can act on',
    text: 'Each finding carries its evidence, a CVSS score and a fix, prioritised so the worst problems come first.',
    points: ['Executive and technical PDF reports', 'Security score from 0 to 100', 'Scheduled scans and team sharing'],
  },
];

const STEPS: { title: string; text: string; icon: IconName }[] = [
  { icon: 'upload', title: 'Import your API', text: 'Upload an OpenAPI/Swagger spec or a Postman collection, or add endpoints manually.' },
  { icon: 'sliders', title: 'Configure the scan', text: 'Pick an OWASP profile or a custom suite and choose which checks run on each endpoint.' },
  { icon: 'play', title: 'Run the tests', text: 'Portcullis sends the requests, compares the answers and records the evidence as it goes.' },
  { icon: 'fileText', title: 'Get your report', text: 'Read the findings with prioritised fixes, then download the executive or technical PDF.' },
];

export function LandingPage(): ReactElement {
  const pageRef = useRef<HTMLDivElement>(null);
  useReveal(pageRef);
  const { figures, live } = usePlatformStats();

  // Interactivity mark for the budget test: handlers are attached once this effect has run.
  useEffect(() => {
    performance.mark('portcullis:landing-interactive');
  }, []);

  return (
    <div className="landing" ref={pageRef} data-testid="landing-page">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="site-header landing-header">
        <div className="container header-inner">
          <Logo />
          <nav aria-label="Sections" className="header-nav">
            <a href="#features" data-testid="nav-features">
              Features
            </a>
            <a href="#how-it-works" data-testid="nav-how-it-works">
              How It Works
            </a>
          </nav>
          <div className="header-actions">
            <ThemeToggle />
            <Link to="/login" className="button button-ghost button-small" data-testid="landing-login">
              Login
            </Link>
            <Link to="/signup" className="button button-primary button-small" data-testid="landing-get-started">
              Get Started
            </Link>
          </div>
        </div>
      </header>

      <main id="main">
        <section className="hero" aria-labelledby="hero-title">
          <div className="container hero-inner">
            <div className="hero-copy">
              <p className="eyebrow">API security testing · OWASP API Security Top 10</p>
              <h1 id="hero-title">Find the holes in your API before attackers do.</h1>
              <p className="hero-lead">
                {PRODUCT_NAME} scans your APIs for broken authorization, weak authentication, SSRF and the rest of the
                OWASP API Top 10, shows the evidence for every finding and tells you how to fix it — on your laptop or on a
                shared team server.
              </p>
              <div className="hero-actions">
                <Link to="/signup" className="button button-primary button-large" data-testid="hero-get-started">
                  Start scanning free
                  <Icon name="arrowRight" size={18} />
                </Link>
                <a href="#how-it-works" className="button button-secondary button-large">
                  See how it works
                </a>
              </div>
            </div>
            <aside className="activity-panel" aria-labelledby="activity-title" data-testid="platform-activity">
              <div className="activity-head">
                <h2 id="activity-title">Live platform activity</h2>
                <span className={`live-dot${live ? ' is-live' : ''}`} aria-hidden="true" />
              </div>
              <dl className="activity-list" aria-busy={figures ? undefined : true}>
                {ACTIVITY.map((item) => (
                  <div className="activity-item" key={item.key}>
                    <dt>
                      <span className="activity-icon">
                        <Icon name={item.icon} />
                      </span>
                      {item.label}
                    </dt>
                    <dd data-testid={`stat-${item.key}`}>{figures ? figures[item.key] : '…'}</dd>
                  </div>
                ))}
              </dl>
              <p className="activity-note" data-testid="activity-source">
                {figures === null ? 'Loading activity…' : live ? 'Counted across this server.' : 'Typical platform figures.'}
              </p>
            </aside>
          </div>
        </section>

        <section className="stats-strip reveal" aria-label="Highlights" data-testid="stats-strip">
          <div className="container strip-inner">
            {STRIP.map((s) => (
              <div className="strip-item" key={s.label}>
                <Icon name={s.icon} size={22} />
                <p>
                  <strong>{s.value}</strong> <span>{s.label}</span>
                </p>
              </div>
            ))}
          </div>
        </section>

        <section id="features" className="section reveal" aria-labelledby="features-title" data-testid="features-section">
          <div className="container">
            <p className="eyebrow">Features</p>
            <h2 id="features-title" className="section-title">
              Everything you need to test an API properly
            </h2>
            <div className="card-grid">
              {FEATURES.map((f) => (
                <article className="feature-card" key={f.title} data-testid="feature-card">
                  <span className="feature-icon">
                    <Icon name={f.icon} size={24} />
                  </span>
                  <h3>{f.title}</h3>
                  <p>{f.text}</p>
                  <ul>
                    {f.points.map((p) => (
                      <li key={p}>{p}</li>
                    ))}
                  </ul>
                </article>
              ))}
            </div>
          </div>
        </section>

        <section id="how-it-works" className="section section-alt reveal" aria-labelledby="how-title" data-testid="how-it-works-section">
          <div className="container">
            <p className="eyebrow">How it works</p>
            <h2 id="how-title" className="section-title">
              From spec to report in four steps
            </h2>
            <ol className="steps">
              {STEPS.map((s, i) => (
                <li className="step" key={s.title} data-testid="how-step">
                  <span className="step-number" aria-hidden="true">
                    {i + 1}
                  </span>
                  <span className="step-icon">
                    <Icon name={s.icon} size={22} />
                  </span>
                  <h3>{s.title}</h3>
                  <p>{s.text}</p>
                </li>
              ))}
            </ol>
          </div>
        </section>

        <section className="cta reveal" aria-labelledby="cta-title" data-testid="cta-section">
          <div className="container">
            <div className="cta-inner">
            <h2 id="cta-title">Ready to secure your APIs?</h2>
            <p>Create a free account, import your first API and get a report in minutes.</p>
            <div className="hero-actions">
              <Link to="/signup" className="button button-on-accent button-large" data-testid="cta-signup">
                Create free account
              </Link>
              <Link to="/login" className="button button-outline-on-accent button-large">
                I already have an account
              </Link>
            </div>
            </div>
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
