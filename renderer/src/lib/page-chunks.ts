// Chunks of signed-in screens that are worth fetching before they are opened. The router loads every
// screen on demand; the scan page (a 10,000-finding scan must show its first rows within 1 s of the
// click, issue 17) is fetched and compiled once the signed-in frame is idle, so the click waits only
// for the scan's own data.

export const loadScanPage = () => import('../pages/scan/ScanPage');

/**
 * The Markdown renderer of a finding's texts (react-markdown and its parser, larger than the rest of the
 * scan page together): its own chunk, fetched once the scan page is idle, so the page's first rows never
 * wait for it.
 */
export const loadMarkdown = () => import('../components/Markdown');

/** Runs `load` when the browser is idle (or after a short delay where idle callbacks do not exist). */
export function preloadWhenIdle(load: () => Promise<unknown>): () => void {
  const run = () => void load().catch(() => undefined);
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, 200);
  return () => clearTimeout(timer);
}
