// Chunks of signed-in screens that are worth fetching before they are opened. The router loads every
// screen on demand; the scan page (a 10,000-finding scan must show its first rows within 1 s of the
// click, issue 17) is fetched and compiled once the signed-in frame is idle, so the click waits only
// for the scan's own data.

export const loadScanPage = () => import('../pages/scan/ScanPage');

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
