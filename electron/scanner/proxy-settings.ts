// Settings → Scan traffic (issue 27): a user's own upstream proxy and the CA of a TLS-intercepting
// proxy, kept in the SecretStore (a proxy URL may carry a password), shown without the password; and
// which proxy a scan of that user goes through: the user's, else the server's (PORTCULLIS_PROXY).

import { X509Certificate } from 'node:crypto';
import type { ScanTrafficSettings, UpdateScanTrafficRequest } from '../../shared/contract';
import { checkProxyUrl, maskProxyUrl, proxyUrlWithoutPassword } from '../../shared/scan-traffic';
import type { CoreConfig } from '../config';
import type { SecretStore } from '../secrets/types';
import { checkProxyCa, ProxyError, type ScanProxy } from './http/proxy';
import { assertPublicHost, LocalTargetError, type Resolver } from './net-guard';

/** Where a user's scan traffic settings live in the SecretStore. */
export const scanTrafficRef = (userId: string): string => `scan-traffic:${userId}`;

interface StoredScanTraffic {
  v: 1;
  proxy_url: string | null;
  ca_pem: string | null;
}

const EMPTY: StoredScanTraffic = { v: 1, proxy_url: null, ca_pem: null };

export const USER_PROXY_SOURCE = 'Settings → Scan traffic';

export class ProxySettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProxySettingsError';
  }
}

function parseStored(raw: string | null): StoredScanTraffic {
  if (!raw) return { ...EMPTY };
  try {
    const v = JSON.parse(raw) as Partial<StoredScanTraffic>;
    return { v: 1, proxy_url: typeof v.proxy_url === 'string' ? v.proxy_url : null, ca_pem: typeof v.ca_pem === 'string' ? v.ca_pem : null };
  } catch {
    return { ...EMPTY };
  }
}

function describeCa(pem: string | null): ScanTrafficSettings['ca'] {
  if (!pem) return null;
  const count = (pem.match(/-----BEGIN CERTIFICATE-----/g) ?? []).length;
  try {
    const first = new X509Certificate(pem);
    return { subject: first.subject.replace(/\n/g, ', '), valid_to: new Date(first.validTo).toISOString(), fingerprint256: first.fingerprint256, certificates: count };
  } catch {
    return { subject: '(unreadable)', valid_to: '', fingerprint256: '', certificates: count };
  }
}

/** The same proxy but for its password: the stored password may be kept when the form sends the URL without it. */
function sameEndpoint(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.host === b.host && decodeURIComponent(a.username) === decodeURIComponent(b.username);
}

export function createProxySettings(deps: { secrets: SecretStore; config: CoreConfig; resolver?: Resolver }) {
  const { secrets, config } = deps;

  async function read(userId: string): Promise<StoredScanTraffic> {
    return parseStored(await secrets.get(scanTrafficRef(userId)));
  }

  function view(stored: StoredScanTraffic): ScanTrafficSettings {
    const serverProxy = config.scan.proxy;
    return {
      proxy_url: stored.proxy_url ? proxyUrlWithoutPassword(stored.proxy_url) : null,
      proxy_password_set: stored.proxy_url ? new URL(stored.proxy_url).password !== '' : false,
      ca: describeCa(stored.ca_pem),
      server_proxy: serverProxy ? maskProxyUrl(serverProxy.url) : null,
      local_proxy_allowed: config.allowLocalScans,
    };
  }

  /** A team server without local scans reaches no local address, through a user's proxy neither. */
  async function checkAddress(url: URL): Promise<void> {
    if (config.allowLocalScans) return;
    try {
      await assertPublicHost(url.hostname, deps.resolver);
    } catch (err) {
      if (err instanceof LocalTargetError) {
        throw new ProxySettingsError(
          `The proxy ${url.hostname} resolves to a local address (${err.address}), which this team server does not reach for its users. Use a proxy with a public address, or ask the administrator to set PORTCULLIS_PROXY for every scan.`,
        );
      }
      throw new ProxySettingsError(`The proxy host ${url.hostname} could not be resolved: check its name.`);
    }
  }

  return {
    async get(userId: string): Promise<ScanTrafficSettings> {
      return view(await read(userId));
    },

    /** Saves the user's proxy and CA (validated); answers the settings as the form shows them. */
    async update(userId: string, input: UpdateScanTrafficRequest): Promise<ScanTrafficSettings> {
      const current = await read(userId);
      const next: StoredScanTraffic = { v: 1, proxy_url: null, ca_pem: input.ca_pem === undefined ? current.ca_pem : input.ca_pem };
      const raw = input.proxy_url?.trim() ?? '';
      if (raw) {
        const checked = checkProxyUrl(raw);
        if (!checked.ok) throw new ProxySettingsError(checked.message);
        const url = checked.url;
        if (input.proxy_password !== undefined) url.password = encodeURIComponent(input.proxy_password);
        else if (!url.password && current.proxy_url) {
          // The form shows the URL without its password: saving it unchanged keeps the password.
          const before = new URL(current.proxy_url);
          if (before.password && sameEndpoint(before, url)) url.password = before.password;
        }
        await checkAddress(url);
        next.proxy_url = url.href.replace(/\/$/, '');
      }
      if (next.ca_pem !== null && input.ca_pem !== undefined) {
        try {
          next.ca_pem = checkProxyCa(next.ca_pem);
        } catch (err) {
          throw new ProxySettingsError((err as Error).message);
        }
      }
      if (!next.proxy_url && !next.ca_pem) await secrets.delete(scanTrafficRef(userId));
      else await secrets.set(scanTrafficRef(userId), JSON.stringify(next));
      return view(next);
    },

    /**
     * The proxy a scan of this user goes through: the user's own (its address held to the local-address
     * guard where local scans are off), else the server's, else none. A CA without a proxy of the user's
     * applies to the server's proxy.
     */
    async proxyFor(userId: string): Promise<ScanProxy | null> {
      const stored = await read(userId);
      if (stored.proxy_url) return { url: stored.proxy_url, ca: stored.ca_pem, source: USER_PROXY_SOURCE, guarded: !config.allowLocalScans };
      const server = config.scan.proxy;
      if (!server) return null;
      return stored.ca_pem ? { ...server, ca: [server.ca, stored.ca_pem].filter(Boolean).join('\n') } : server;
    },
  };
}

export type ProxySettings = ReturnType<typeof createProxySettings>;

export { ProxyError };
