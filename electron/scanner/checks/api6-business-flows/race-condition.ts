// API6:2023 Unrestricted Access to Sensitive Business Flows: a race condition on a one-time action (a
// coupon, voucher or promo code redeemed, a vote or like cast, a gift card or invitation claimed). An
// action the API refuses to repeat when asked twice in a row may still be done several times when the
// requests arrive together: the "already used?" check and the record of the use are not one step.
// The check asks once more as key 1 (a refusal shows the action is one-time), then sends a burst of
// identical requests at the same moment as an identity that has not done it yet, and once more after.

import type { Endpoint } from '../../../../shared/contract';
import { wordsOf } from '../../../importer/default-flags';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { Burst } from '../../http/pace';
import { differenceMarker } from '../../proof';
import { mutate, type PreparedRequest } from '../../requests';
import { changesExisting, wipeOperation } from '../../probe-safety';
import { asIdentity, setupOf } from '../common/accounts';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { AS_KEY1, propertySchema } from '../common/input-points';
import { OWASP_API6 } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';
import type { SetupUser } from '../../evidence-setup';

/** Requests of the burst: enough to meet a window of a few milliseconds, few enough to stay a probe. */
export const RACE_BURST = 10;

/** Actions meant to happen once per user or per code, by the route's words. */
const ONE_TIME =
  / (redeem|redemptions?|coupons?|vouchers?|promo|promos|promotions?|discounts?|gift ?cards?|giftcards?|claim|claims|rewards?|bonus(es)?|referrals?|transfers?|withdraw|withdrawals?|votes?|upvotes?|downvotes?|likes?|invit(e|es|ation|ations)|accept|apply|activate) /;

export function oneTimeAction(e: Pick<Endpoint, 'path' | 'operation_id' | 'summary'>): boolean {
  return ONE_TIME.test(wordsOf(e.path.replace(/\{[^}]*\}/g, ' '), e.operation_id, e.summary));
}

/** A refusal of the request itself: not the credential's (401), not a throttle (429), not a failure (5xx). */
function refusal(ex: Exchange): boolean {
  return !!ex.response && ex.status >= 400 && ex.status < 500 && ex.status !== 401 && ex.status !== 429;
}

const ALREADY = /\b(already|used|redeemed|claimed|voted|liked|exists?|duplicate|once|no longer|expired|insufficient)\b/i;

/** What the refusal says, for the finding ("You have already used this promo code."). */
function refusalWords(ex: Exchange): string {
  const m = ALREADY.exec(ex.body.slice(0, 2000));
  if (!m) return `HTTP ${ex.status}`;
  const text = ex.body.slice(Math.max(0, m.index - 60), m.index + 60).replace(/\s+/g, ' ').trim();
  return `HTTP ${ex.status}, "${text}"`;
}

/**
 * The request with the spec's own examples where the scan made a value unique (a code becomes
 * "WELCOME5-x1y2"): a one-time action takes a real code, voucher or invitation, which the example names.
 */
export function withExamples(request: PreparedRequest, ep: Endpoint): PreparedRequest {
  const body = request.bodyValue;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return request;
  const schema = ep.request_body?.schema ?? null;
  const restored: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  let changed = false;
  for (const [k, v] of Object.entries(restored)) {
    const example = propertySchema(schema, k)?.example;
    if (typeof example !== 'string' || typeof v !== 'string' || v === example) continue;
    if (v.startsWith(`${example}-`) || v.startsWith(`portcullis-`) || v.replace(/\+[^@]*@/, '@') === example) {
      restored[k] = example;
      changed = true;
    }
  }
  return changed ? mutate(request, { bodyValue: restored }) : request;
}

/** An identity that has not done the action yet: a user the scan registers, else key 2. */
async function freshIdentity(ctx: CheckContext): Promise<{ auth: RequestAuth; who: string; setup: SetupUser | null } | null> {
  if (ctx.accounts) {
    const user = await ctx.accounts.create('the identity of the race-condition check');
    if (!('error' in user)) return { auth: asIdentity(user.session), who: `the scan's own user ${user.session.name}`, setup: setupOf(user, 'attacker') };
  }
  if (ctx.hasKey2 && ctx.identities.distinct !== false) return { auth: { kind: 'key', key: 2 }, who: ctx.identityName(2), setup: null };
  return null;
}

export const raceOneTime = defineCheck({
  id: 'api6-race-one-time',
  title: 'Race condition on a one-time action',
  flag: 'UABF',
  owasp: 'API6:2023',
  cwe: 'CWE-362',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:N/I:H/A:N',
  kind: 'active',
  measuresThrottling: true,
  safety: 'intrusive',
  scope: 'endpoint',
  last: true,
  budget: RACE_BURST + 3,
  description:
    'On writes whose route names a one-time action (redeem, coupon, voucher, promo, gift card, claim, reward, transfer, withdraw, vote, ' +
    "like, invitation, accept, apply, activate), once per operation, with the spec's example values (a real code, not one the scan made " +
    "unique): key 1's request must succeed and the same request " +
    'again be refused (a 4xx other than 401 and 429: "already used"), which shows the action is one-time. Then, as an identity that has ' +
    `not done it yet (a user the scan registers, else key 2), ${RACE_BURST} identical requests are started at the same moment, and one more ` +
    'after them. Finding when more than one request of the burst succeeded while the request after it was refused again. The burst is ' +
    "the one exception to the scan's pace (docs/decisions.md): it waits until nothing else is in flight, then its requests start together.",
  coverage:
    'Only refusals show a one-time action: a counter or balance that moves more than once without any refusal (a transfer repeated until ' +
    'the balance is negative) is not measured. As many requests reach the target at once as the scan has connections (its concurrency, 8 ' +
    'by default); a window longer than the burst\'s spread is needed. Writes follow the write policy: objects the scan created, or with ' +
    '`writes: existing` operations that change what exists (a transfer between existing accounts).',
  remediation:
    'Make the check and the use one atomic step: a unique constraint on (user, code) and an INSERT that fails on a repeat, a conditional ' +
    'UPDATE ... WHERE used = false checked for the rows it changed, a row lock (SELECT ... FOR UPDATE) or an idempotency key; never ' +
    '"read, decide, await something, then write".',
  references: [OWASP_API6, 'https://cwe.mitre.org/data/definitions/362.html', 'https://portswigger.net/web-security/race-conditions'],
  appliesTo: (e) => e.flags.includes('UABF') && ['POST', 'PUT', 'PATCH'].includes(e.method) && oneTimeAction(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    if (wipeOperation(ep)) return;
    // A write to what exists (a transfer between existing accounts) without an object the scan created: only with `writes: existing`.
    if (changesExisting(ep) && !/\{[^}]+\}/.test(ep.path) && !ctx.options.allowExistingObjects) {
      ctx.holdBack('a burst of identical requests goes to an operation that changes existing data only with `writes: existing`');
      return;
    }
    if (ctx.parallelism < 2) {
      ctx.skip('the scan sends one request at a time (concurrency 1): no two requests can arrive together');
      return;
    }
    const shared = await ctx.baselineRequest(ep, 'key1');
    if (!shared) return;
    const request = withExamples(shared, ep);
    if (ctx.budgetLeft() < RACE_BURST + 3) return;
    // The shared baseline did the action once, unless the scan had made its values up: then once with the spec's examples.
    const first = request === shared ? await ctx.baseline('key1') : await ctx.sendPrepared(request, AS_KEY1);
    if (!first?.ok) return;
    const repeat = await ctx.sendPrepared(request, AS_KEY1);
    if (!refusal(repeat)) return;

    const racer = await freshIdentity(ctx);
    if (!racer) {
      ctx.note(`${describeEndpoint(ep)}: the one-time action was not raced: it needs an identity that has not done it yet (sign-up or key 2).`);
      return;
    }
    const burst = new Burst();
    const answers = await Promise.all(Array.from({ length: RACE_BURST }, () => ctx.sendPrepared(request, racer.auth, { burst, throttleIsAnswer: true })));
    const after = await ctx.sendPrepared(request, racer.auth);
    const won = answers.filter((a) => a.ok);
    if (won.length < 2 || !refusal(after)) return;
    const statuses = answers.map((a) => a.status).join(',');
    yield finding(ep, { first, repeat, won, after, statuses, who: racer.who, setup: racer.setup });
  },
});

interface Race {
  first: Exchange;
  repeat: Exchange;
  won: Exchange[];
  after: Exchange;
  statuses: string;
  who: string;
  setup: SetupUser | null;
}

function finding(ep: Endpoint, r: Race): FindingDraft {
  const action = ep.summary || ep.operation_id || describeEndpoint(ep);
  return {
    name: `Race condition on a one-time action: ${action}`,
    parameter: 'parallel requests',
    description:
      `${describeEndpoint(ep)} is a one-time action: key 1's request succeeded (HTTP ${r.first.status}) and the same request again was refused ` +
      `(${refusalWords(r.repeat)}). Yet ${r.won.length} of ${RACE_BURST} identical requests sent at the same moment by ${r.who} succeeded, ` +
      `and one more after them was refused (${refusalWords(r.after)}). The check of "already done" and the record of it are not one step: ` +
      'a client that sends its requests together redeems the code, casts the vote or claims the reward several times.',
    notes: [
      `Key 1: ${r.first.status} then ${r.repeat.status}. Burst of ${RACE_BURST} as ${r.who}: statuses ${r.statuses}; then ${r.after.status}.`,
      `${r.won.length} successes where one was allowed: each may have moved a balance, a counter or a stock once more.`,
    ],
    exchanges: [
      { label: 'Key 1: the action (baseline)', exchange: r.first },
      { label: 'Key 1: the same again, refused', exchange: r.repeat },
      { label: 'Burst: a first success', exchange: r.won[0]! },
      { label: 'Burst: a second success', exchange: r.won[1]! },
      { label: 'After the burst: refused', exchange: r.after },
    ],
    reproduce: r.won[1],
    // A success: what its answer has and the refusal of a repeat lacks.
    proof: { marker: differenceMarker(r.won[1]!, r.repeat) },
    ...(r.setup ? { setup: [r.setup] } : {}),
  };
}
