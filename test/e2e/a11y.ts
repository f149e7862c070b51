// Accessibility and screenshot helpers of the browser tests: axe with the WCAG 2.1 AA and best-practice
// rules (serious and critical violations fail), console watching, and screenshots to look at.

import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const SCREENSHOTS = path.resolve('test-results', 'screenshots');

export async function expectNoSeriousViolations(page: Page): Promise<void> {
  // Colours are judged at rest: a hover or focus transition caught halfway is not what users read.
  await page.evaluate(() => {
    if (document.getElementById('e2e-no-transitions')) return;
    const style = document.createElement('style');
    style.id = 'e2e-no-transitions';
    style.textContent = '*, *::before, *::after { transition: none !important; }';
    document.head.append(style);
  });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
      why: v.nodes[0]?.failureSummary,
    }));
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}

export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return problems;
}

export async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
}
