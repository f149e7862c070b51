import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { GUIDES, guideReadMinutes } from './content';
import DocumentationPage from './DocumentationPage';
import { readMinutes, textOf, WORDS_PER_MINUTE, wordCount } from './reading-time';

/** What a reader sees of some markup: the text between the tags, entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

const rendered = (node: ReactNode) => renderToStaticMarkup(createElement(MemoryRouter, null, node));

describe("a guide's reading time", () => {
  it('is its rendered words at 200 a minute, for every guide', () => {
    expect(WORDS_PER_MINUTE).toBe(200);
    for (const guide of GUIDES) {
      const words = wordCount(visibleText(rendered(guide.body())));
      expect(words, guide.id).toBeGreaterThan(50);
      expect(guideReadMinutes(guide), guide.id).toBe(Math.max(1, Math.round(words / 200)));
      // The tree walk and the rendered page agree word for word (no component hides text from the count).
      expect(wordCount(textOf(guide.body())), guide.id).toBe(words);
    }
  });

  it('is what the Documentation page and each guide page show', () => {
    const page = rendered(createElement(Routes, null, createElement(Route, { path: '*', element: createElement(DocumentationPage) })));
    for (const guide of GUIDES) {
      const card = new RegExp(`data-testid="guide-card-${guide.id}"[\\s\\S]*?data-testid="guide-read-time">[\\s\\S]*?(\\d+) min read`).exec(page);
      expect(Number(card?.[1]), guide.id).toBe(guideReadMinutes(guide));
      const own = renderToStaticMarkup(
        createElement(MemoryRouter, { initialEntries: [`/guide/${guide.id}`] }, createElement(Routes, null, createElement(Route, { path: '/guide/:guideId', element: createElement(DocumentationPage) }))),
      );
      expect(Number(/data-testid="guide-read-time">[\s\S]*?(\d+) min read/.exec(own)?.[1]), guide.id).toBe(guideReadMinutes(guide));
    }
  });

  it('rounds to whole minutes, one at least', () => {
    expect([readMinutes(0), readMinutes(99), readMinutes(299), readMinutes(300), readMinutes(1000)]).toEqual([1, 1, 1, 2, 5]);
  });
});

describe('the guides describe today\'s product', () => {
  it('has a guide for the scan page, identities, triage, coverage and the CLI', () => {
    const text = (id: string) => visibleText(rendered(GUIDES.find((g) => g.id === id)!.body()));
    expect(text('scan-page')).toMatch(/Coverage[\s\S]*Compare with previous scan[\s\S]*Filters/);
    expect(text('identities')).toMatch(/Add identity[\s\S]*login[\s\S]*OAuth2[\s\S]*Export YAML/);
    expect(text('triage')).toMatch(/False positive[\s\S]*Accepted risk[\s\S]*--baseline/);
    expect(text('coverage')).toMatch(/Not reached[\s\S]*Only 4xx[\s\S]*--min-coverage/);
    expect(text('cli')).toMatch(/--config[\s\S]*--fail-on[\s\S]*--baseline[\s\S]*--format/);
    // History's "View Report" opens the scan page; "Latest scan" on the card does too.
    expect(text('first-scan')).toContain('Latest scan');
  });
});
