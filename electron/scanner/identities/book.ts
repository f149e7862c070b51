// The scan's identities: every session by name and by the slot checks speak as, the engine's
// credential provider (placing, renewing), and the identity table of the scan result.

import type { IdentityReport } from '../../../shared/identities';
import type { CredentialProvider } from '../http/engine';
import { placeCredential } from '../http/engine';
import type { Exchange, KeyNumber, RequestAuth } from '../http/exchange';
import type { CredentialPlacement } from './placement';
import type { IdentitySession } from './session';

export class IdentityBook implements CredentialProvider {
  readonly sessions: IdentitySession[] = [];
  private readonly byName = new Map<string, IdentitySession>();
  private readonly bySlot = new Map<KeyNumber, IdentitySession>();

  add(session: IdentitySession): void {
    this.sessions.push(session);
    this.byName.set(session.name.toLowerCase(), session);
    if (session.slot !== null) this.bySlot.set(session.slot, session);
  }

  /** Moves a session into a slot (or out of every slot with null). */
  assign(session: IdentitySession, slot: KeyNumber | null): void {
    if (session.slot !== null && this.bySlot.get(session.slot) === session) this.bySlot.delete(session.slot);
    session.slot = slot;
    if (slot !== null) this.bySlot.set(slot, session);
  }

  slot(k: KeyNumber): IdentitySession | null {
    return this.bySlot.get(k) ?? null;
  }

  named(name: string): IdentitySession | null {
    return this.byName.get(name.toLowerCase()) ?? null;
  }

  sessionFor(auth: RequestAuth): IdentitySession | null {
    if (auth.kind === 'key') return this.bySlot.get(auth.key) ?? null;
    if (auth.kind === 'identity') return this.byName.get(auth.name.toLowerCase()) ?? null;
    return null;
  }

  ready(auth: RequestAuth): Promise<void> | null {
    const s = this.sessionFor(auth);
    return s?.stale() ? s.ensureFresh() : null;
  }

  apply(auth: RequestAuth, headers: Record<string, string>, url: URL, placements: readonly CredentialPlacement[]): { url: URL; stamp: number } {
    if (auth.kind === 'none') return { url, stamp: 0 };
    if (auth.kind === 'credential') {
      // A made-up or tampered credential goes where the primary user's does.
      return { url: placeCredential(auth.value, headers, url, this.slot(1)?.placements ?? placements), stamp: 0 };
    }
    const s = this.sessionFor(auth);
    if (!s) throw new Error(auth.kind === 'key' ? `Key ${auth.key} was not provided for this scan.` : `No identity named ${auth.name} in this scan.`);
    return s.apply(headers, url, placements);
  }

  renew(auth: RequestAuth, stamp: number): Promise<boolean> {
    const s = this.sessionFor(auth);
    return s ? s.renewAfter401(stamp) : Promise.resolve(false);
  }

  /** Every exchange the engine completes: the first success as an identity becomes its canary; the cookies it sets stay with the identity. */
  observe(ex: Exchange): void {
    const auth = ex.request.auth;
    if (auth.kind !== 'key' && auth.kind !== 'identity') return;
    const s = this.sessionFor(auth);
    s?.observe(ex);
    if (ex.response) s?.keepCookies(ex);
  }

  /** The label a slot goes by in finding texts: its identity's name. */
  labelOf(k: KeyNumber): string {
    return this.slot(k)?.name ?? `key ${k}`;
  }

  reports(): IdentityReport[] {
    return this.sessions.map((s) => ({
      name: s.name,
      role: s.role,
      obtained: s.obtained,
      verified_as: s.verifiedAs,
      refreshes: s.refreshes,
      failures: s.failures,
      created: s.account !== null,
    }));
  }

  get refreshes(): number {
    return this.sessions.reduce((n, s) => n + s.refreshes, 0);
  }
}
