// Documentation (spec section 2) at /documentation, and one guide at /guide/:guideId. Quick actions
// scroll to Getting Started, Advanced Features, Troubleshooting and FAQ; the FAQ opens one item at a time.

import { useState, type ReactElement } from 'react';
import { Link, useParams } from 'react-router-dom';
import { PRODUCT_NAME } from '../../../../shared/constants';
import { Icon, type IconName } from '../../components/Icon';
import { FAQ, GUIDES, guideReadMinutes, SECTIONS, type Guide, type SectionId } from './content';

const QUICK_ICONS: Record<SectionId, IconName> = {
  'getting-started': 'play',
  'advanced-features': 'sliders',
  troubleshooting: 'tool',
  faq: 'help',
};

function GuideMeta({ guide }: { guide: Guide }): ReactElement {
  return (
    <span className="guide-meta">
      <span className={`badge difficulty-${guide.difficulty.toLowerCase()}`} data-testid="guide-difficulty">
        {guide.difficulty}
      </span>
      <span data-testid="guide-read-time">
        <Icon name="clock" size={14} style={{ verticalAlign: '-2px' }} /> {guideReadMinutes(guide)} min read
      </span>
    </span>
  );
}

function scrollToSection(id: SectionId): void {
  const section = document.getElementById(id);
  if (!section) return;
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  section.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
  // Keyboard and screen-reader users land where they asked to go.
  section.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
}

function Faq(): ReactElement {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <div className="faq" data-testid="faq">
      {FAQ.map((item, i) => {
        const expanded = open === i;
        return (
          <div key={item.q} className="faq-item" data-testid="faq-item">
            <h3>
              <button
                type="button"
                className="faq-question"
                aria-expanded={expanded}
                aria-controls={`faq-answer-${i}`}
                id={`faq-question-${i}`}
                onClick={() => setOpen(expanded ? null : i)}
                data-testid="faq-question"
              >
                {item.q}
                <Icon name="chevronDown" size={18} />
              </button>
            </h3>
            <div
              id={`faq-answer-${i}`}
              role="region"
              aria-labelledby={`faq-question-${i}`}
              className="faq-answer"
              hidden={!expanded}
              data-testid="faq-answer"
            >
              {item.a()}
            </div>
          </div>
        );
      })}
    </div>
  );
}

function GuideView({ guideId }: { guideId: string }): ReactElement {
  const guide = GUIDES.find((g) => g.id === guideId);
  if (!guide) {
    return (
      <div className="empty-state" data-testid="guide-not-found">
        <h1>Guide not found</h1>
        <p>
          There is no guide called <code>{guideId}</code>.
        </p>
        <Link to="/documentation" className="button button-primary">
          Back to Documentation
        </Link>
      </div>
    );
  }
  const related = GUIDES.filter((g) => g.section === guide.section && g.id !== guide.id);
  return (
    <article className="guide-article prose" data-testid="guide-view" data-guide-id={guide.id}>
      <Link to="/documentation" className="back-link" data-testid="guide-back">
        <Icon name="arrowLeft" size={16} /> Documentation
      </Link>
      <h1 data-testid="guide-title">{guide.title}</h1>
      <p className="muted">{guide.summary}</p>
      <GuideMeta guide={guide} />
      <div className="panel" style={{ marginTop: 20 }}>
        {guide.body()}
      </div>
      {related.length > 0 && (
        <section style={{ marginTop: 32 }} aria-labelledby="related-title">
          <h2 id="related-title">Related guides</h2>
          <div className="grid-2">
            {related.map((g) => (
              <GuideCard key={g.id} guide={g} />
            ))}
          </div>
        </section>
      )}
    </article>
  );
}

function GuideCard({ guide }: { guide: Guide }): ReactElement {
  return (
    <Link to={`/guide/${guide.id}`} className="guide-card" data-testid={`guide-card-${guide.id}`}>
      <h3>{guide.title}</h3>
      <p>{guide.summary}</p>
      <GuideMeta guide={guide} />
    </Link>
  );
}

export default function DocumentationPage(): ReactElement {
  const { guideId } = useParams();
  return (
    <div data-testid="documentation-page">
      {guideId ? (
        <GuideView guideId={guideId} />
      ) : (
        <>
          <div className="page-head">
            <div>
              <h1>Documentation</h1>
              <p>How to import, scan and read results with {PRODUCT_NAME}.</p>
            </div>
          </div>
          <div className="grid-4" style={{ marginBottom: 40 }} data-testid="doc-quick-actions">
            {SECTIONS.map((s) => (
              <button
                key={s.id}
                type="button"
                className="action-card"
                style={{ font: 'inherit', textAlign: 'left', cursor: 'pointer' }}
                onClick={() => scrollToSection(s.id)}
                data-testid={`doc-quick-${s.id}`}
              >
                <span className="stat-icon">
                  <Icon name={QUICK_ICONS[s.id]} size={22} />
                </span>
                <strong className="action-title">{s.title}</strong>
                <span className="action-lead">{s.lead}</span>
              </button>
            ))}
          </div>
          <div className="doc-layout">
            {SECTIONS.map((s) => (
              <section key={s.id} id={s.id} className="doc-section" aria-labelledby={`${s.id}-title`} data-testid={`doc-section-${s.id}`}>
                <h2 id={`${s.id}-title`} tabIndex={-1}>
                  <Icon name={QUICK_ICONS[s.id]} size={22} /> {s.title}
                </h2>
                <p className="muted">{s.lead}</p>
                {s.id === 'faq' ? (
                  <Faq />
                ) : (
                  <div className="grid-3">
                    {GUIDES.filter((g) => g.section === s.id).map((g) => (
                      <GuideCard key={g.id} guide={g} />
                    ))}
                  </div>
                )}
              </section>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
