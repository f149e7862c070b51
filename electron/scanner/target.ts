// May this runner scan the API's base URL? It must be an absolute http(s) URL, and where local
// scans are off (a team server by default) its host must not resolve to a loopback, private or
// link-local address — checked on the resolved addresses, not the name.

import { SCAN_MESSAGES } from '../../shared/messages';
import { assertPublicHost, LocalTargetError, systemResolver, UnresolvableHostError, type Resolver } from './net-guard';

export type TargetVerdict = { ok: true; url: URL } | { ok: false; status: 400 | 403; message: string };

export const TARGET_MESSAGES = {
  badUrl: 'The API\'s base URL must be an absolute http:// or https:// URL to scan it. Edit the API\'s details first.',
  unresolvable: (host: string) => `The API's host ${host} could not be resolved.`,
} as const;

export async function checkScanTarget(baseUrl: string, allowLocal: boolean, resolve: Resolver = systemResolver): Promise<TargetVerdict> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { ok: false, status: 400, message: TARGET_MESSAGES.badUrl };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return { ok: false, status: 400, message: TARGET_MESSAGES.badUrl };
  if (allowLocal) return { ok: true, url };
  try {
    await assertPublicHost(url.hostname, resolve);
  } catch (err) {
    if (err instanceof LocalTargetError) return { ok: false, status: 403, message: SCAN_MESSAGES.localDisabled };
    if (err instanceof UnresolvableHostError) return { ok: false, status: 400, message: TARGET_MESSAGES.unresolvable(url.hostname) };
    throw err;
  }
  return { ok: true, url };
}
