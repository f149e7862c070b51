// The public pages: landing (live activity, fallback figures, anchors, scroll-in), the legal pages,
// privacy highlighting and its two navs, contact mailto tags, under-construction.

import { CONTACT_TAGS, LANDING_FALLBACK_STATS, LEGAL_LAST_UPDATED, SUPPORT_EMAIL } from '../../shared/constants';
import { UNDER_CONSTRUCTION } from '../../shared/messages';
import { createAccount, expect, serverUrl, signInByStorage, test } from './fixtures';

test.describe('landing', () => {
  test('/ goes to /landing, which shows the live platform activity from the API', async ({ page, request }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/landing$/);
    await expect(page.getByTestId('activity-source')).toHaveText('Counted across this server.');
    const res = await request.get(`${serverUrl()}/api/stats/platform`);
    const { data } = (await res.json()) as { data: Record<string, number> };
    const fmt = (n: number) => new Intl.NumberFormat('en-US').format(n);
    // Other tests may add accounts meanwhile; the figures are the server's, not the fallback.
    await expect(page.getByTestId('stat-scansToday')).toHaveText(fmt(data.scansToday!));
    for (const key of ['vulnerabilitiesFound', 'apisSecured'] as const) {
      await expect(page.getByTestId(`stat-${key}`)).toHaveText(/^[\d,]+$/);
    }
  });

  test('falls back to the spec figures when the stats call fails', async ({ page }) => {
    await page.route('**/api/stats/platform', (route) => route.abort());
    await page.goto('/landing');
    await expect(page.getByTestId('stat-vulnerabilitiesFound')).toHaveText(LANDING_FALLBACK_STATS.vulnerabilitiesFound);
    await expect(page.getByTestId('stat-apisSecured')).toHaveText(LANDING_FALLBACK_STATS.apisSecured);
    await expect(page.getByTestId('stat-scansToday')).toHaveText(LANDING_FALLBACK_STATS.scansToday);
  });

  test('has the spec sections, header anchors and links', async ({ page }) => {
    await page.goto('/landing');
    const panel = page.getByTestId('platform-activity');
    for (const label of ['Vulnerabilities Found', 'APIs Secured', 'Scans Today']) await expect(panel).toContainText(label);
    const strip = page.getByTestId('stats-strip');
    for (const label of ['Fast Setup', 'OWASP Compliant', 'Complete Coverage', '5min Quick Start']) await expect(strip).toContainText(label);
    await expect(page.getByTestId('feature-card')).toHaveCount(3);
    await expect(page.getByTestId('how-step')).toHaveCount(4);
    await expect(page.getByTestId('cta-section')).toBeAttached();
    const footer = page.getByTestId('site-footer');
    for (const path of ['/privacy', '/terms', '/contact']) await expect(footer.locator(`a[href="${path}"]`)).toHaveCount(1);

    await page.getByTestId('nav-how-it-works').click();
    await expect(page).toHaveURL(/#how-it-works$/);
    await expect(page.getByTestId('how-it-works-section')).toBeInViewport();
    await page.getByTestId('nav-features').click();
    await expect(page.getByTestId('features-section')).toBeInViewport();

    await page.getByTestId('landing-get-started').click();
    await expect(page).toHaveURL(/\/signup$/);
    await page.goto('/landing');
    await page.getByTestId('landing-login').click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('sections animate in when scrolled into view', async ({ page }) => {
    await page.goto('/landing');
    const cta = page.getByTestId('cta-section');
    await expect(cta).not.toHaveClass(/is-visible/);
    await cta.scrollIntoViewIfNeeded();
    await expect(cta).toHaveClass(/is-visible/);
  });
});

test.describe('legal and contact pages', () => {
  test('terms: 15 sections, date, South African law, email button', async ({ page }) => {
    await page.goto('/terms');
    await expect(page.getByTestId('legal-section')).toHaveCount(15);
    await expect(page.getByTestId('last-updated')).toHaveText(`Last updated: ${LEGAL_LAST_UPDATED}`);
    await expect(page.getByTestId('terms-page')).toContainText('law of the Republic of South Africa');
    await expect(page.getByTestId('terms-page')).toContainText('in the 12 months before the claim');
    await expect(page.getByTestId('terms-page')).toContainText('at least 18 years old');
    await expect(page.getByTestId('terms-email')).toHaveAttribute('href', new RegExp(`^mailto:${SUPPORT_EMAIL}\\?subject=`));
    const related = page.getByTestId('legal-related');
    for (const path of ['/landing', '/login', '/signup']) await expect(related.locator(`a[href="${path}"]`)).toHaveCount(1);
  });

  test('security statement: date, recovery objectives, retention, links', async ({ page }) => {
    await page.goto('/security');
    const body = page.getByTestId('security-page');
    await expect(page.getByTestId('last-updated')).toHaveText(`Last updated: ${LEGAL_LAST_UPDATED}`);
    for (const text of ['Role-based access control', 'Multi-factor authentication', '4 hours', '1 hour', 'Audit logs: 7 years', 'life of the account plus 30 days']) {
      await expect(body).toContainText(text);
    }
    const related = page.getByTestId('legal-related');
    for (const path of ['/privacy', '/terms', '/contact']) await expect(related.locator(`a[href="${path}"]`)).toHaveCount(1);
  });

  test('privacy: 13 sections, the section in view is highlighted, visitor nav, mail button', async ({ page }) => {
    await page.goto('/privacy');
    await expect(page.getByTestId('legal-section')).toHaveCount(13);
    const body = page.getByTestId('privacy-page');
    for (const text of ['2 years after it is closed', 'within 72', 'at least 16 years old', 'within 30 days', '12 months', '3 years']) {
      await expect(body).toContainText(text);
    }
    await expect(page.getByTestId('toc-information-we-collect')).toHaveAttribute('aria-current', 'location');
    await page.evaluate(() => document.getElementById('data-retention')!.scrollIntoView({ block: 'start', behavior: 'instant' }));
    await expect(page.getByTestId('toc-data-retention')).toHaveAttribute('aria-current', 'location');
    await expect(page.locator('#data-retention')).toHaveClass(/is-active/);
    await expect(page.getByTestId('toc-information-we-collect')).not.toHaveAttribute('aria-current', 'location');

    const nav = page.getByTestId('visitor-nav');
    for (const [name, path] of [['Home', '/landing'], ['Login', '/login'], ['Sign Up', '/signup']] as const) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', path);
    }
    await expect(page.getByTestId('logout-button')).toHaveCount(0);
    const mail = await page.getByTestId('privacy-email').getAttribute('href');
    expect(mail).toMatch(new RegExp(`^mailto:${SUPPORT_EMAIL}\\?subject=Privacy%20Inquiry&body=`));
  });

  test('privacy for a signed-in user: app nav, initial, greeting and Logout', async ({ page, request }) => {
    const a = await createAccount(request);
    await signInByStorage(page, request, a);
    await page.goto('/privacy');
    const nav = page.getByTestId('signed-in-nav');
    for (const [name, path] of [['Home', '/home'], ['Dashboard', '/dashboard'], ['API Management', '/manage-apis'], ['Settings', '/settings']] as const) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', path);
    }
    await expect(page.getByTestId('user-initial')).toHaveText('AL');
    await expect(page.getByTestId('user-greeting')).toHaveText(/^Good (morning|afternoon|evening), Ada$/);
    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('logout-button').click();
    await page.waitForURL('**/login');
  });

  test('contact: one tagged mailto link per topic, support hours, links', async ({ page }) => {
    await page.goto('/contact');
    for (const tag of CONTACT_TAGS) {
      const href = await page.getByTestId(`contact-${tag}`).getAttribute('href');
      expect(href).toMatch(new RegExp(`^mailto:${SUPPORT_EMAIL}\\?subject=`));
      expect(decodeURIComponent(new URL(href!).searchParams.get('subject') ?? '')).toMatch(new RegExp(`^\\[${tag}\\] `));
    }
    await expect(page.getByTestId('support-hours')).toContainText('Monday to Friday, 09:00-17:00 (UTC+2)');
    await expect(page.getByTestId('contact-page')).toContainText('Within 4 hours');
    const links = page.getByTestId('contact-links');
    for (const path of ['/landing', '/login', '/signup', '/documentation', '/privacy', '/terms']) {
      await expect(links.locator(`a[href="${path}"]`)).toHaveCount(1);
    }
  });

  test('/public-templates shows the under-construction page with a way back to the dashboard', async ({ page }) => {
    await page.goto('/public-templates');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(UNDER_CONSTRUCTION.title);
    await expect(page.getByTestId('back-to-dashboard')).toHaveAttribute('href', '/dashboard');
  });
});
