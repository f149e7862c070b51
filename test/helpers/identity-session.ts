// One identity's session with its own engine, outside a scan: to count logins exactly (tests and
// the identities benchmark). The session is logged in and has its canary (GET /me).

import { scanConfigSchema, type IdentityInput } from '../../shared/identities';
import { HttpEngine } from '../../electron/scanner/http/engine';
import { AS_KEY1 } from '../../electron/scanner/http/exchange';
import { IdentityBook } from '../../electron/scanner/identities/book';
import { IdentitySession, sessionDepsOver } from '../../electron/scanner/identities/session';

export async function sessionEngine(baseUrl: string, identity: IdentityInput): Promise<{ engine: HttpEngine; session: IdentitySession }> {
  const config = scanConfigSchema.parse({ identities: [identity] }).identities[0]!;
  const controller = new AbortController();
  const book = new IdentityBook();
  const engine = new HttpEngine({ baseUrl, concurrency: 16, rps: 0, timeoutMs: 5000, retries: 0, maxBodyBytes: 1 << 20, maxRequests: 100_000, allowLocal: true, credentials: book, signal: controller.signal });
  const session = new IdentitySession(
    config,
    1,
    null,
    sessionDepsOver(engine, {
      specTokenUrl: null,
      allowCommand: false,
      signal: controller.signal,
      addSecrets: () => undefined,
      fail: (reason) => {
        throw new Error(reason);
      },
    }),
  );
  book.add(session);
  await session.start();
  session.observe(await engine.send({ method: 'GET', url: engine.resolve('/me'), auth: AS_KEY1 }));
  return { engine, session };
}
