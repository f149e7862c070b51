// Frame of the long static pages (security statement, terms, privacy): header, title block, a table of
// contents that highlights the section being read, the numbered sections, related links, footer.

import type { ReactElement, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useActiveSection } from '../hooks/useActiveSection';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';
import '../styles/legal.css';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

export function LegalLayout({
  title,
  intro,
  updated,
  sections,
  related,
  actions,
  testId,
  showGreeting = false,
}: {
  title: string;
  intro: ReactNode;
  updated?: string;
  sections: LegalSection[];
  related: { to: string; label: string }[];
  actions?: ReactNode;
  testId: string;
  showGreeting?: boolean;
}): ReactElement {
  const ids = sections.map((s) => s.id);
  const active = useActiveSection(ids);
  return (
    <div className="legal-page" data-testid={testId}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <SiteHeader showGreeting={showGreeting} />
      <main id="main" className="container legal-main">
        <div className="legal-hero">
          <h1>{title}</h1>
          {updated && (
            <p className="legal-updated" data-testid="last-updated">
              Last updated: {updated}
            </p>
          )}
          <div className="legal-intro">{intro}</div>
          {actions && <div className="legal-actions">{actions}</div>}
        </div>
        <div className="legal-body">
          <nav className="legal-toc" aria-label="On this page" data-testid="legal-toc">
            <p className="legal-toc-title">On this page</p>
            <ol>
              {sections.map((s, i) => (
                <li key={s.id}>
                  <a
                    href={`#${s.id}`}
                    className={active === s.id ? 'active' : undefined}
                    aria-current={active === s.id ? 'location' : undefined}
                    data-testid={`toc-${s.id}`}
                  >
                    <span className="toc-number">{i + 1}.</span> {s.title}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
          <div className="legal-sections">
            {sections.map((s, i) => (
              <section
                key={s.id}
                id={s.id}
                className={`legal-section${active === s.id ? ' is-active' : ''}`}
                aria-labelledby={`${s.id}-title`}
                data-testid="legal-section"
                data-active={active === s.id || undefined}
              >
                <h2 id={`${s.id}-title`}>
                  <span className="section-number">{i + 1}.</span> {s.title}
                </h2>
                {s.body}
              </section>
            ))}
            <nav className="legal-related" aria-label="Related pages" data-testid="legal-related">
              {related.map((r) => (
                <Link key={r.to} to={r.to}>
                  {r.label}
                </Link>
              ))}
            </nav>
          </div>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}
