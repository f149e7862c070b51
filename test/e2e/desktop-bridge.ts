// The desktop app's window.portcullis, for browser tests of desktop-only screens (Settings → Team
// server, the login page's team server panel). Electron cannot run here, so the preload's bridge is
// stood in for by one that relays each call to the page's own server over HTTP: the same core the
// desktop's IPC would reach (the IPC path itself is tested in Node: test/contract/renderer-transport,
// electron/ipc-bridge.test.ts). Scan events are not relayed.

import type { Page } from '@playwright/test';

export async function actAsDesktop(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Req = { method: string; path: string; headers?: Record<string, string>; body?: string | Uint8Array | null };
    (window as unknown as { portcullis: unknown }).portcullis = {
      async request(req: Req) {
        const res = await fetch(req.path, { method: req.method, headers: req.headers, body: (req.body ?? undefined) as BodyInit | undefined });
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => {
          headers[k] = v;
        });
        return { status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) };
      },
      subscribe: () => () => undefined,
    };
  });
}
