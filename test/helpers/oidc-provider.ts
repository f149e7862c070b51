// A real OpenID Connect provider (the oidc-provider package) on 127.0.0.1 for the sign-in tests, with
// an interaction step that signs in whichever test account is set (or refuses, like a user pressing
// Cancel), and a tiny cookie-keeping "browser" that follows the redirects of an authorization URL.

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { interactionPolicy } from 'oidc-provider';

export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
  picture?: string;
}

export interface TestClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
}

export interface TestProvider {
  issuer: string;
  /** The account the next interaction signs in. */
  setAccount(account: TestAccount): void;
  /** The next interaction ends with this OAuth error instead (e.g. access_denied). */
  refuseNext(error: string, description?: string): void;
  /**
   * Plays the browser: follows redirects from `url` (keeping cookies) until a Location leaves the
   * provider; answers that URL. With `visit`, that last URL is requested too (a loopback listener).
   */
  browse(url: string, options?: { visit?: boolean }): Promise<string>;
  close(): Promise<void>;
}

/** The key set, exported once per provider (a fixed RSA key: no "development keys" warning). */
function signingKeys() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: randomBytes(6).toString('hex'), use: 'sig', alg: 'RS256' }] };
}

export async function startTestProvider(clients: TestClient[], options: { idTokenTtlSeconds?: number } = {}): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let account: TestAccount = { sub: 'subject-1', email: 'someone@example.com', email_verified: true, name: 'Some One' };
  let refusal: { error: string; error_description?: string } | null = null;

  const policy = interactionPolicy.base();
  // Google's account chooser: requestable with prompt=select_account, resolved by the interaction.
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      ...c,
      application_type: 'native',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: c.client_secret ? 'client_secret_basic' : 'none',
    })),
    jwks: signingKeys(),
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name', 'picture'] },
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ ...account, sub: id }) }),
    interactions: { policy, url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: options.idTokenTtlSeconds ?? 3600, Interaction: 600, Session: 3600, Grant: 3600 },
  });
  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (refusal) {
          const result = refusal;
          refusal = null;
          return await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
        }
        if (details.prompt.name === 'select_account' || details.prompt.name === 'login') {
          return await provider.interactionFinished(req, res, { select_account: {}, login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
        }
        const grant = new provider.Grant({ accountId: details.session?.accountId ?? account.sub, clientId: details.params.client_id });
        grant.addOIDCScope(String(details.params.scope ?? 'openid'));
        const grantId = await grant.save();
        return await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      } catch (err) {
        res.statusCode = 500;
        res.end(String(err));
      }
    })();
  });

  return {
    issuer,
    setAccount(a) {
      account = a;
    },
    refuseNext(error, description) {
      refusal = { error, ...(description ? { error_description: description } : {}) };
    },
    async browse(url, { visit = false } = {}) {
      const jar = new Map<string, string>();
      let next = url;
      for (let hop = 0; hop < 12; hop += 1) {
        const res = await fetch(next, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const c of res.headers.getSetCookie()) {
          const [pair = ''] = c.split(';');
          const i = pair.indexOf('=');
          jar.set(pair.slice(0, i), pair.slice(i + 1));
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`The provider answered ${res.status} without a redirect: ${await res.text()}`);
        await res.arrayBuffer();
        next = new URL(location, next).href;
        if (new URL(next).origin !== issuer) {
          if (visit) await (await fetch(next)).arrayBuffer();
          return next;
        }
      }
      throw new Error('Too many redirects at the provider.');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
