// Identity setups that worked (issue 31, item 5): every scan that signs in keeps its identities as a
// setup of the user's for the API (a few, newest first), secrets in the SecretStore like a scan's keys,
// so Configure Scan can offer each again, not only the last. A setup (or the user's own scan) goes to
// the form as a recipe whose secrets are KEPT_SECRET markers; `filled` puts the values back.

import { createHash, randomUUID } from 'node:crypto';
import type { IdentityRecipe, IdentitySetup, KeptFrom } from '../../shared/contract';
import { KEPT_SECRET, summarizeIdentity, type ConfigIssue } from '../../shared/identities';
import { fillKeptSecrets, holdsKeptSecret, withKeptSecrets } from '../../shared/kept-secrets';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { isUniqueViolation } from '../store/dialect';
import type { Repos } from '../store/index';
import { SCAN_SECRET_PREFIX } from '../secrets/index';
import type { SecretStore } from '../secrets/types';
import { parseStoredIdentities, type StoredIdentities } from './stored-identities';

/** Setups kept per user and API. */
export const SETUPS_KEPT = 5;

/** Under the scan prefix: the orphan sweep knows them (liveSecretRefs lists the setups' references). */
export const setupSecretRef = (id: string): string => `${SCAN_SECRET_PREFIX}setup:${id}`;

/** One setup per recipe: its identities with the secrets replaced, and its sign-up choice. */
export function setupFingerprint(stored: StoredIdentities): string {
  const recipe = JSON.stringify({ identities: stored.identities.map(withKeptSecrets), signup: stored.signup ?? null });
  return createHash('sha256').update(recipe).digest('hex');
}

function summaryOf(stored: StoredIdentities): string {
  return JSON.stringify({ identities: stored.identities.map(summarizeIdentity), signup: stored.signup ?? null });
}

function countKept(v: unknown): number {
  if (typeof v === 'string') return v.split(KEPT_SECRET).length - 1;
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + countKept(x), 0);
  if (v && typeof v === 'object') return Object.values(v).reduce((n: number, x) => n + countKept(x), 0);
  return 0;
}

/** Why kept secrets could not be had: no such setup or scan of the caller's, or its secrets are gone. */
export class KeptSourceError extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
    readonly issues: ConfigIssue[] = [],
  ) {
    super(message);
    this.name = 'KeptSourceError';
  }
}

export const SETUP_TEXT = {
  notFound: 'That identity setup is not kept (any more).',
  scanNotYours: 'Only your own scan\'s identities can be edited and retried: use Retry, or New Scan.',
  secretsGone: 'The secrets of that scan are no longer kept: type them in again.',
} as const;

export function createIdentitySetups(deps: { repos: Repos; secrets: SecretStore; clock: Clock; logger: Logger }) {
  const { repos, secrets, clock, logger } = deps;

  /** The stored identities (with secrets) of a kept source the caller owns, on this API. */
  async function storedOf(userId: string, apiId: string, from: KeptFrom): Promise<{ stored: StoredIdentities; failed: string | null }> {
    if (from.setup_id !== undefined) {
      const row = await repos.identitySetups.find(from.setup_id);
      // Someone else's setup, or another API's, is as absent as one that never was.
      if (!row || row.user_id !== userId || row.api_id !== apiId) throw new KeptSourceError(404, SETUP_TEXT.notFound);
      const raw = await secrets.get(row.secret_ref);
      if (!raw) throw new KeptSourceError(409, SETUP_TEXT.notFound);
      return { stored: parseStoredIdentities(raw), failed: null };
    }
    const scan = await repos.scans.findById(from.scan_id);
    // Only the caller's own scan: a teammate's secrets must not be filled into a request the caller can point anywhere.
    if (!scan || scan.api_id !== apiId) throw new KeptSourceError(404, 'Scan not found.');
    if (scan.user_id !== userId) throw new KeptSourceError(409, SETUP_TEXT.scanNotYours);
    const raw = scan.secret_ref ? await secrets.get(scan.secret_ref) : null;
    if (!raw) throw new KeptSourceError(409, SETUP_TEXT.secretsGone);
    let failed: string | null = null;
    try {
      failed = (JSON.parse(scan.notes) as { login_failure?: { identity?: string } }).login_failure?.identity ?? null;
    } catch {
      failed = null;
    }
    return { stored: parseStoredIdentities(raw), failed };
  }

  return {
    /** Keeps the identities a scan signed in with as a setup of the user's for the API; the oldest beyond SETUPS_KEPT go. */
    async remember(userId: string, apiId: string, scanId: string, stored: StoredIdentities): Promise<void> {
      const fingerprint = setupFingerprint(stored);
      const summary = summaryOf(stored);
      const now = clock.now();
      const existing = await repos.identitySetups.findByFingerprint(apiId, userId, fingerprint);
      if (existing) {
        // The same recipe: its newest secrets (a changed password, a rotated refresh token) replace the old.
        await secrets.set(existing.secret_ref, JSON.stringify(stored));
        await repos.identitySetups.touch(existing.id, summary, scanId, now);
      } else {
        const id = randomUUID();
        const ref = setupSecretRef(id);
        await secrets.set(ref, JSON.stringify(stored));
        try {
          await repos.identitySetups.insert({ id, apiId, userId, fingerprint, summary, secretRef: ref, scanId }, now);
        } catch (err) {
          await secrets.delete(ref);
          // Two scans of the same setup ended at once: the other one kept it.
          if (!isUniqueViolation(err)) throw err;
        }
      }
      for (const ref of await repos.identitySetups.trim(apiId, userId, SETUPS_KEPT)) await secrets.delete(ref);
    },

    async list(userId: string, apiId: string): Promise<IdentitySetup[]> {
      const rows = await repos.identitySetups.list(apiId, userId);
      return rows.map((r) => {
        let summary: { identities?: IdentitySetup['identities']; signup?: IdentitySetup['signup'] } = {};
        try {
          summary = JSON.parse(r.summary) as typeof summary;
        } catch {
          logger.warn('An identity setup has an unreadable summary', { setup_id: r.id });
        }
        return { id: r.id, worked_at: r.worked_at, identities: summary.identities ?? [], signup: summary.signup ?? null };
      });
    },

    /** A setup's (or the caller's own scan's) identities for the form, every secret a KEPT_SECRET marker. */
    async recipe(userId: string, apiId: string, from: KeptFrom): Promise<IdentityRecipe> {
      const { stored, failed } = await storedOf(userId, apiId, from);
      const identities = stored.identities.map(withKeptSecrets);
      return { identities, signup: stored.signup ?? null, kept: countKept(identities), failed_identity: failed };
    },

    /**
     * The identities a client sent with their markers filled from the kept source; unchanged when they
     * hold none. A marker with nothing to fill it (or no source given) is refused with its field.
     */
    async filled<T>(userId: string, apiId: string, identities: T[], from: KeptFrom | undefined, fieldPrefix = 'identities'): Promise<{ identities: T[]; stored: StoredIdentities | null }> {
      if (!holdsKeptSecret(identities)) return { identities, stored: null };
      const stored = from ? (await storedOf(userId, apiId, from)).stored : null;
      const fill = fillKeptSecrets(identities, stored?.identities ?? [], fieldPrefix);
      if (fill.issues.length) throw new KeptSourceError(409, fill.issues[0]!.message, fill.issues);
      return { identities: fill.identities as T[], stored };
    },

    /** Deletes one of the caller's setups and its secrets; false when there was none. */
    async forget(userId: string, apiId: string, setupId: string): Promise<boolean> {
      const row = await repos.identitySetups.find(setupId);
      if (!row || row.user_id !== userId || row.api_id !== apiId) return false;
      const ref = await repos.identitySetups.delete(setupId);
      if (ref) await secrets.delete(ref);
      return true;
    },

    /** The secrets of an API's setups, once the API (and with it the rows) is gone. */
    async forgetRefs(refs: readonly string[]): Promise<void> {
      for (const ref of refs) await secrets.delete(ref);
    },
  };
}

export type IdentitySetups = ReturnType<typeof createIdentitySetups>;
