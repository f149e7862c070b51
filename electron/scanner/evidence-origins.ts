// What a finding's requests name that the scan made before the check sent them: an object the
// resource pool (or a check) created, read, changed or deleted by its id in the path, and a user the
// scan registered that sends a request. A fresh instance of the API has neither, so the finding's curl
// text starts with their creates (a user's registration and login) and reads the new id or token from
// the answers (curlSequence), and it replays days later on the reader's own copy.

import { withChallengeSteps } from './evidence-challenge';
import { setupExchanges, type SetupUser } from './evidence-setup';
import { statefulSteps, type LabelledExchange } from './evidence';
import type { Exchange, RequestAuth } from './http/exchange';
import type { IdentitySession } from './identities/session';
import type { CreatedObject } from './resources';

/** What the scan made before a finding's requests: the objects it created and the users it registered. */
export interface FindingOrigins {
  /** Every object the scan created so far (the resource pool's and the ones checks recorded). */
  objects(): readonly CreatedObject[];
  /** The user the scan registered that sends with `auth`, as the setup of the steps; null for any other sender. */
  user(auth: RequestAuth): SetupUser | null;
}

/** A user the scan registered (its session) as the setup of a finding's steps; null for other sessions and for a cookie session. */
export function registeredUser(session: IdentitySession | null): SetupUser | null {
  if (!session?.account || !session.registration || !session.token) return null;
  return { identity: session.name, role: 'user', registration: session.registration, logins: session.loginExchanges, password: session.account.password, token: session.token };
}

function pathSegments(url: string, base?: string): { origin: string; segs: string[] } | null {
  try {
    const u = new URL(url, base);
    return { origin: u.origin, segs: u.pathname.split('/').filter(Boolean).map((s) => safeDecode(s)) };
  } catch {
    return null;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function startsWith(segs: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= segs.length && prefix.every((s, i) => segs[i] === s);
}

type Segments = NonNullable<ReturnType<typeof pathSegments>>;

/** The paths that address an object: its create's path followed by its id, and its own Location (parsed once per object). */
const addresses = new WeakMap<CreatedObject, Segments[]>();
function addressesOf(obj: CreatedObject): Segments[] {
  let out = addresses.get(obj);
  if (!out) {
    const created = pathSegments(obj.exchange.request.url);
    const location = obj.location ? pathSegments(obj.location, obj.exchange.request.url) : null;
    out = [...(created ? [{ origin: created.origin, segs: [...created.segs, obj.id] }] : []), ...(location && location.segs.at(-1) === obj.id ? [location] : [])];
    addresses.set(obj, out);
  }
  return out;
}

/**
 * Whether the request's path addresses the object: the path its create was sent to followed by its id
 * (/orders then /orders/17, /orders/17/pay), or the object's own Location.
 */
export function namesObject(ex: Exchange, obj: CreatedObject, at: Segments | null = pathSegments(ex.request.url)): boolean {
  return !!at && addressesOf(obj).some((a) => a.origin === at.origin && startsWith(at.segs, a.segs));
}

/**
 * The creates of the objects `ex` names, and of the objects those creates name (a parent), that
 * `have` (the steps' own exchanges) lacks. Of two creates of the same id at the same path (an id used
 * again after a delete), the last one sent before the request.
 */
export function createsNamedBy(ex: Exchange, objects: readonly CreatedObject[], have: ReadonlySet<number>): Exchange[] {
  const out = new Map<number, Exchange>();
  const visit = (x: Exchange, depth: number) => {
    if (depth > 4) return;
    const latest = new Map<string, CreatedObject>();
    const at = pathSegments(x.request.url);
    for (const o of objects) {
      if (o.exchange.seq >= x.seq || !namesObject(x, o, at)) continue;
      const k = addressesOf(o)[0]?.segs.join('/') ?? o.id;
      const seen = latest.get(k);
      if (!seen || seen.exchange.seq < o.exchange.seq) latest.set(k, o);
    }
    for (const o of latest.values()) {
      if (have.has(o.exchange.seq) || out.has(o.exchange.seq)) continue;
      out.set(o.exchange.seq, o.exchange);
      visit(o.exchange, depth + 1);
    }
  };
  visit(ex, 0);
  return [...out.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * The steps of a finding's curl text (statefulSteps: null when one request reproduces it alone), with
 * what the scan made before them: the creates of the objects they name, first, and the registration
 * and login of the users the scan registered that send them (added to `setup`).
 */
export function stepsWithOrigins(
  exchanges: readonly LabelledExchange[],
  setup: readonly SetupUser[],
  reproduce: Exchange,
  origins: FindingOrigins | null,
): { steps: LabelledExchange[] | null; setup: SetupUser[] } {
  const users = [...setup];
  const creates: LabelledExchange[] = [];
  const all = () => [...exchanges, ...setupExchanges(users), ...creates];
  let steps = statefulSteps(all(), reproduce);
  if (!origins) return { steps, setup: users };
  // Twice: what a single command names can make it a sequence, whose other steps (and the creates themselves) name more.
  for (let round = 0; round < 2; round += 1) {
    const sent = (steps ?? [{ label: '', exchange: reproduce }]).map((s) => s.exchange);
    let added = false;
    for (const ex of sent) {
      const user = origins.user(ex.request.auth);
      const have = new Set(all().map((x) => x.exchange.seq));
      if (user && !users.some((u) => u.identity === user.identity) && !have.has(user.registration.seq) && user.registration.seq < ex.seq) {
        users.push(user);
        added = true;
      }
    }
    const have = new Set(all().map((x) => x.exchange.seq));
    for (const ex of sent) {
      for (const create of createsNamedBy(ex, origins.objects(), have)) {
        have.add(create.seq);
        creates.push({ label: 'Setup: create the object the next steps name', exchange: create });
        added = true;
      }
    }
    if (!added) break;
    steps = statefulSteps(all(), reproduce);
  }
  // A write filled from a fresh challenge replays only with one of the reader's own, fetched just before it.
  return { steps: withChallengeSteps(steps, reproduce, exchanges), setup: users };
}
