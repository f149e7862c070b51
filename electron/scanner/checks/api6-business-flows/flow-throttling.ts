// API6:2023 Unrestricted Access to Sensitive Business Flows. No tool automates this fully: what is
// measurable is whether a flow (sign-up, purchase, checkout, transfer, vote, comment, reset, OTP...)
// accepts a burst of valid requests with no throttle or challenge. Medium confidence at most (never
// high: whether the flow is sensitive is a business judgement), and the findings say coverage is partial.

import type { Endpoint } from '../../../../shared/contract';
import { ANONYMOUS, type Exchange, type RequestAuth } from '../../http/exchange';
import type { PreparedRequest } from '../../requests';
import { wordsOf } from '../../../importer/default-flags';
import { adjustCvss } from '../../cvss';
import { describeEndpoint, defineCheck } from '../common/helpers';
import { AS_KEY1, challengeSignal, freshRequest, throttleSignals } from '../common/input-points';
import type { CheckContext } from '../types';
import { OWASP_API6 } from '../common/references';
import { isShortCodeRoute } from '../common/short-codes';


export const FLOW_BURST = 10;

const CALLBACK = / (webhooks?|callbacks?|hooks?|notifications?|ipn) /;
/** Flows that check a one-time code: wrong guesses (4xx) that are never throttled are the weakness. */
const CODE_FLOW = / (otp|totp|2fa|mfa|passcode|pin|verify|verification) /;
const CODE_FIELD = /^(code|otp|pin|passcode|token|totp|verification_?code|verificationcode)$/i;

function routeWords(e: Endpoint): string {
  return wordsOf(e.path.replace(/\{[^}]*\}/g, ' '), e.operation_id, e.summary, ...e.tags);
}

/**
 * Flows that are sensitive by nature: sign-up, purchase and orders, transfers and payments, password
 * reset, votes and likes, comments and reviews, one-time-code checks. Any other create without a
 * limit is the API-wide missing rate limit (API4), not a business flow. Read from what the call
 * does (its path, operation id and summary), not its tags: a "Payments" tag covers lists too.
 */
const SENSITIVE_FLOW =
  / (sign ?up|signups?|register|registration|enrol+(ment)?|join|purchases?|buy|checkout|orders?|cart|payments?|pay|charges?|refunds?|transfers?|withdraw(als?)?|deposits?|payouts?|redeem|coupons?|vouchers?|gift|claim|bids?|trade|donate|donations?|bookings?|reserve|reservations?|tickets?|reset|forgot|recover(y)?|votes?|upvotes?|downvotes?|likes?|ratings?|rate|favou?rites?|follow|comments?|reviews?|replies|reply|feedback|otp|totp|passcode|pin|2fa|mfa|verify|verification|code|codes) /;

export function sensitiveFlow(e: Endpoint): boolean {
  return SENSITIVE_FLOW.test(wordsOf(e.path.replace(/\{[^}]*\}/g, ' '), e.operation_id, e.summary));
}

/**
 * What an abused flow moves, which decides whether a missing throttle is a risk or a remark: money
 * (orders, payments, transfers, vouchers), credentials (resets, one-time codes) or messages (mail,
 * SMS, invitations sent to others). Nouns count as the route's own resource (its path or operation
 * id: POST /payments); the summary adds only actions ("Buy", "Transfer"), so "Save a payment card"
 * is storage, not a payment. Sign-ups, votes, likes, reviews and comments move none of these: the
 * burst is still reported, as information.
 */
const MONEY_RESOURCE =
  / (purchases?|checkouts?|orders?|payments?|charges?|refunds?|transfers?|withdrawals?|deposits?|payouts?|redeem|redemptions?|coupons?|vouchers?|gift ?cards?|bids?|trades?|donations?|bookings?|reservations?|tickets?|invoices?|wallets?|balances?|credits?) /;
const MONEY_ACTION = / (buy|purchase|checkout|check out|order|pay|charge|refund|transfer|withdraw|deposit|redeem|donate|bid|trade|reserve) /;
const CREDENTIALS = / (reset|forgot|recover|recovery|passwords?|passwd|otp|totp|passcode|pin|2fa|mfa|verify|verification|codes?) /;
const MESSAGES = / (messages?|mails?|e ?mails?|sms|invites?|invitations?|notify|notifications?|contact|send|sends) /;

export type FlowStake = 'money' | 'credentials' | 'messages';

export function flowStake(e: Endpoint): FlowStake | null {
  const resource = wordsOf(e.path.replace(/\{[^}]*\}/g, ' '), e.operation_id);
  const all = wordsOf(e.path.replace(/\{[^}]*\}/g, ' '), e.operation_id, e.summary);
  if (MONEY_RESOURCE.test(resource) || MONEY_ACTION.test(all)) return 'money';
  if (CREDENTIALS.test(all)) return 'credentials';
  if (MESSAGES.test(all)) return 'messages';
  return null;
}

function flowName(e: Endpoint): string {
  const label = e.summary || e.operation_id;
  return label ? `${label} (${describeEndpoint(e)})` : describeEndpoint(e);
}

function isCreate(e: Endpoint): boolean {
  return e.method === 'POST' && !/\{[^}]+\}/.test(e.path);
}

/** A nested create (POST /products/{id}/reviews): it makes a new child, addressing its parent as a read. */
function isNestedCreate(e: Endpoint): boolean {
  const segs = e.path.split('/').filter(Boolean);
  return e.method === 'POST' && /\{/.test(e.path) && !/\{/.test(segs[segs.length - 1] ?? '');
}

/** A request for one step of the burst: fresh values for creates, the scan's own object otherwise. */
async function flowRequest(ctx: CheckContext, e: Endpoint, fresh: boolean): Promise<{ request: PreparedRequest; how: string } | null> {
  if (isCreate(e)) {
    const r = await freshRequest(ctx, e);
    return r ? { request: r, how: fresh ? 'fresh values once the API refused a repeat as a duplicate' : 'the same valid body each time' } : null;
  }
  const own = await ctx.baselineRequest(e, 'key1');
  if (own) return { request: own, how: 'the same request on an object the scan created' };
  if (isNestedCreate(e)) {
    const r = await ctx.prepare(e, 1, 'read');
    return r ? { request: r, how: 'a new item under an existing parent that key 1 can read' } : null;
  }
  return null;
}

function hasCodeField(request: PreparedRequest): boolean {
  const v = request.bodyValue;
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).some((k) => CODE_FIELD.test(k));
}

export const flowNotThrottled = defineCheck({
  id: 'api6-flow-not-throttled',
  title: 'Sensitive business flow not throttled',
  flag: 'UABF',
  owasp: 'API6:2023',
  cwe: 'CWE-799',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:L/A:L',
  kind: 'active',
  measuresThrottling: true,
  safety: 'intrusive',
  scope: 'endpoint',
  last: true,
  budget: FLOW_BURST + 2,
  description:
    `On endpoints flagged as business flows that are sensitive by nature (sign-up, purchase, order, checkout, transfer, payment, password reset, vote, like, ` +
    `comment, review, one-time-code checks), sends a bounded burst of ${FLOW_BURST} valid requests (without credentials on public flows, else as key 1; fresh values for creates; writes only on objects the scan created or as new items under an ` +
    'existing parent). Finding (medium confidence, never high; naming the flow) when every request succeeds with no 429, no Retry-After, no exhausted rate ' +
    'limit and no CAPTCHA or challenge; for one-time-code checks, when every wrong code is answered the same way without a throttle. Scored ' +
    'as a risk when the flow moves money, credentials or messages (orders, payments, resets, codes, mail); otherwise (sign-up, votes, ' +
    'reviews, comments) as information. Coverage is ' +
    'partial: business rules (quotas, fraud checks, human review) and limits above the burst size are not seen. Other creates (a note, a ' +
    'book) are not business flows: a missing limit there is the API-wide api4-no-rate-limit finding.',
  remediation:
    'Protect each sensitive flow for what it is: per-user and per-device limits on purchases, transfers, votes and comments; CAPTCHAs or ' +
    'proof-of-work on sign-up; lockouts and short-lived codes on OTP verification; and monitoring of automated use. Answer 429 with ' +
    'Retry-After when a limit is reached.',
  references: [OWASP_API6, 'https://cwe.mitre.org/data/definitions/799.html', 'https://owasp.org/www-project-automated-threats-to-web-applications/'],
  appliesTo: (e) => e.flags.includes('UABF') && ['POST', 'PUT', 'PATCH'].includes(e.method) && !CALLBACK.test(routeWords(e)) && sensitiveFlow(e) && !isShortCodeRoute(e), // short codes: api2-short-code-brute-force
  async *run(ctx) {
    const ep = ctx.endpoint;
    const codeFlow = CODE_FLOW.test(routeWords(ep));
    const results: Exchange[] = [];
    let how = '';
    let codes = false;
    // The same request each time (one victim, one item, one account), unless the API refuses a
    // repeat as a duplicate (sign-up): then fresh values, and that duplicate does not count.
    let step: { request: PreparedRequest; how: string } | null = null;
    let fresh = false;
    // A public flow (sign-up, a guest checkout) is sent as an anonymous client would send it, so a
    // finding says it needs no credentials; key 1 once the API refuses that.
    let auth: RequestAuth = ctx.authSpec(ep).declaredSecured ? AS_KEY1 : ANONYMOUS;
    for (let i = 0; results.length < FLOW_BURST && i < FLOW_BURST + 2; i += 1) {
      if (ctx.budgetLeft() <= 0) return;
      if (!step || fresh) step = await flowRequest(ctx, ep, fresh);
      if (!step) return;
      how = step.how;
      codes ||= hasCodeField(step.request);
      const ex = await ctx.sendPrepared(step.request, auth);
      if (auth.kind === 'none' && !results.length && (ex.status === 401 || ex.status === 403)) {
        auth = AS_KEY1;
        continue;
      }
      results.push(ex);
      // Throttled or challenged: the flow is protected (as far as a burst can tell).
      if (throttleSignals(ex).some((s) => s === 'HTTP 429' || s.startsWith('retry-after')) || exhausted(ex) || challengeSignal(ex) || ex.status === 503) return;
      if (!ex.response) return;
      if (ex.ok) continue;
      if (!fresh && results.length === 2 && results[0]!.ok && duplicate(ex)) {
        fresh = true;
        results.pop();
        continue;
      }
      // Wrong one-time codes: the same refusal every time, never a throttle.
      if (codeFlow && codes && (ex.status === 400 || ex.status === 422) && ex.status === results[0]!.status) continue;
      return;
    }
    const allOk = results.every((r) => r.ok);
    const limits = [...new Set(results.flatMap((r) => throttleSignals(r)))].slice(0, 4);
    const first = results[0]!;
    const last = results[results.length - 1]!;
    const flow = flowName(ep);
    const stake = flowStake(ep);
    yield {
      // A flow that moves no money, credentials or messages: the burst is a remark, not a risk.
      ...(stake ? {} : { cvss: adjustCvss(ctx.check.cvss, { C: 'N', I: 'N', A: 'N' }) }),
      name: allOk ? `Business flow not throttled: ${ep.summary || ep.operation_id || describeEndpoint(ep)}` : `One-time code guesses not throttled: ${ep.summary || describeEndpoint(ep)}`,
      parameter: 'burst',
      description:
        (allOk
          ? `${FLOW_BURST} valid requests to the flow "${flow}" in a row all succeeded (HTTP ${[...new Set(results.map((r) => r.status))].join('/')}), ` +
            'with no throttling and no challenge. Automated clients can repeat this flow as fast as they like (mass sign-ups, scalping, ' +
            'spam, vote manipulation, draining balances).'
          : `${FLOW_BURST} wrong one-time codes sent to "${flow}" were each answered HTTP ${first.status}, with no throttling, lockout or ` +
            'challenge: the code space can be guessed.') +
        (limits.length ? ` The responses advertise only a generic limit (${limits.join('; ')}), which this burst stayed within.` : '') +
        (stake
          ? ` The flow moves ${stake}, so abuse has a direct cost.`
          : ' The flow moves no money, credentials or messages, so this is reported as information: decide whether it needs a limit.') +
        ' Two signals (every request of the burst succeeded; no throttle, limit or challenge in any answer), but medium confidence at most: ' +
        'whether this flow needs protecting is a business judgement, and automated testing covers this category only in part (business ' +
        'rules, quotas and human review are not seen).',
      notes: [
        `Burst: ${FLOW_BURST} requests ${auth.kind === 'none' ? 'without credentials' : 'as key 1'} (${how}); statuses ${results.map((r) => r.status).join(',')}.`,
        'Coverage of API6 is partial: only the absence of throttling and challenges is measured.',
      ],
      exchanges: [
        { label: 'Request 1 of the burst', exchange: first },
        { label: `Request ${results.length} of the burst`, exchange: last },
      ],
      reproduce: last,
    };
  },
});

/** The API refused a repeated create as a duplicate (an account or item that already exists). */
function duplicate(ex: Exchange): boolean {
  return ex.status === 409 || ((ex.status === 400 || ex.status === 422) && /\b(exists?|already|taken|duplicate|in use|registered|unique)\b/i.test(ex.body.slice(0, 2000)));
}

/** A rate-limit header saying nothing is left. */
function exhausted(ex: Exchange): boolean {
  for (const name of ['ratelimit-remaining', 'x-ratelimit-remaining', 'x-rate-limit-remaining']) {
    const v = ex.header(name);
    if (v !== undefined && Number(v.split(/[;,]/)[0]) <= 0) return true;
  }
  return false;
}

