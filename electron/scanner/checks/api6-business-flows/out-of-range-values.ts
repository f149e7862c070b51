// API6:2023 business rules: negative, zero and out-of-range quantities, prices, amounts and ratings
// accepted by creates and updates of objects the scan created, proven by reading the object back (the
// value was stored) or by a computed total that moved with it.

import type { Endpoint, JsonSchema } from '../../../../shared/contract';
import { cvssScore } from '../../cvss';
import type { Exchange } from '../../http/exchange';
import { memberMarker } from '../../proof';
import { targetFor, type Target } from '../api3-property-authorization/mass-assignment';
import { defineCheck, describeEndpoint, withPrivileges } from '../common/helpers';
import { injectionPoints, type InjectionPoint } from '../common/input-points';
import { asKey, isIdLike, isObj, propOf, resourceObject, sameValue, schemaType, type Json } from '../common/objects';
import { withOwnParents } from '../common/ownership';
import { OWASP_API6 } from '../common/references';
import { ownParentFields, sendCreate } from '../common/varied-creates';
import type { CheckContext } from '../types';

type ValueKind = 'money' | 'count' | 'rating' | 'percent' | 'bounded';

const MONEY = /(amount|price|cost|fee|total|subtotal|tip|charge|payment|deposit|withdrawal|balance)$/i;
const COUNT = /(quantity|qty|count|units|seats|nights|guests|tickets|items|pieces)$/i;
const RATING = /(rating|stars|score|grade)$/i;
const PERCENT = /(discount|percent|percentage|pct|rebate)$/i;
/** Totals an accepted value can move: the order total after a negative quantity. */
const TOTAL = /^(total|grand_?total|sub_?total|total_?(amount|price|cost|due)|amount_?due|order_?total|balance_?due)$/i;

const MAX_POINTS = 3;

interface Candidate {
  point: InjectionPoint;
  kind: ValueKind;
}

function declared(s: JsonSchema | null, k: 'minimum' | 'maximum' | 'exclusiveMinimum'): number | null {
  const v = s?.[k];
  return typeof v === 'number' ? v : null;
}

function kindOf(p: InjectionPoint): ValueKind | null {
  if (p.where !== 'body' || (p.type !== 'integer' && p.type !== 'number') || typeof p.value !== 'number') return null;
  if (p.schema?.readOnly === true || p.schema?.enum || isIdLike(p.key)) return null;
  if (MONEY.test(p.key)) return 'money';
  if (COUNT.test(p.key)) return 'count';
  if (RATING.test(p.key)) return 'rating';
  if (PERCENT.test(p.key)) return 'percent';
  const min = declared(p.schema, 'minimum') ?? declared(p.schema, 'exclusiveMinimum');
  return min !== null && min >= 0 ? 'bounded' : null;
}

/** Values out of the field's business range, most telling first. Declared maxima are the API4 size-limit check's. */
function attackValues(c: Candidate): number[] {
  const s = c.point.schema;
  const min = declared(s, 'minimum');
  const exclusiveMin = declared(s, 'exclusiveMinimum');
  const current = Math.abs(c.point.value as number) || 1;
  const out: number[] = [];
  if ((min === null || min >= 0) && (exclusiveMin === null || exclusiveMin >= 0)) out.push(-current);
  const undeclared = min === null && exclusiveMin === null;
  if (declared(s, 'maximum') === null && (c.kind === 'rating' || c.kind === 'percent')) out.push(c.kind === 'rating' ? 999 : 150);
  if ((min !== null && min > 0) || (exclusiveMin !== null && exclusiveMin >= 0) || (undeclared && (c.kind === 'count' || c.kind === 'rating'))) out.push(0);
  return [...new Set(out)].slice(0, 2);
}

/** A value at a point's path ("items[0].quantity") in a read-back object, or by its key at the top. */
function valueAt(obj: Json | null, name: string): { found: boolean; value: unknown } {
  let cur: unknown = obj;
  for (const seg of name.split(/\.|\[(\d+)\]/).filter((x) => x !== undefined && x !== '')) {
    if (/^\d+$/.test(seg) && Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isObj(cur)) {
      const p = propOf(cur, seg);
      if (!p.found) return propOf(obj, name.split(/[.\]]/).pop() ?? name);
      cur = p.value;
    } else return { found: false, value: undefined };
  }
  return { found: cur !== undefined, value: cur };
}

function totalOf(obj: Json | null): { name: string; value: number } | null {
  if (!obj) return null;
  for (const [k, v] of Object.entries(obj)) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
    if (TOTAL.test(k) && Number.isFinite(n)) return { name: k, value: n };
  }
  return null;
}

interface Accepted {
  candidate: Candidate;
  sent: number;
  attack: Exchange;
  read: Exchange;
  stored: boolean;
  total: { name: string; before: number; after: number } | null;
}

async function tryValue(ctx: CheckContext, target: Target, c: Candidate, value: number): Promise<Accepted | null> {
  if (ctx.budgetLeft() < 2) return null;
  // A create refused as a duplicate (the caller's parent already holds that product) goes again with its other ids changed.
  const request = c.point.with(value);
  const attack = request.method === 'POST' ? await sendCreate(ctx, request, 1, [c.point.key, ...ownParentFields(ctx, request, 1)]) : await ctx.sendPrepared(request, asKey(1));
  if (!attack.ok) return null;
  const read = await target.readBack(attack, 1);
  if (!read?.ok) return null;
  const after = resourceObject(read.json());
  const got = valueAt(after, c.point.name);
  const stored = got.found && sameValue(value, got.value);
  const was = totalOf(target.before);
  const now = totalOf(after);
  // A smaller value that lowered the total. Not shown as stored, only a negative total counts: a value
  // clamped to the field's minimum lowers the total too, and that is the server enforcing the rule.
  const lowered = !!was && !!now && now.name === was.name && value < (c.point.value as number) && now.value < was.value - 1e-9 && (stored || now.value < 0);
  if (!stored && !lowered) return null;
  return { candidate: c, sent: value, attack, read, stored, total: lowered ? { name: was!.name, before: was!.value, after: now!.value } : null };
}

/** The vector of what an accepted value does: it changes what is owed, stores a wrong amount, or is merely out of range. */
function cvssOf(a: Accepted): string {
  const { kind } = a.candidate;
  if (a.total && (kind === 'money' || kind === 'count')) return 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:N';
  if ((kind === 'money' || kind === 'count') && (a.sent < 0 || kind === 'money')) return 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:L/A:N';
  return 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:N/I:L/A:N';
}

function describeAccepted(a: Accepted): string {
  const p = a.candidate.point;
  const range = [declared(p.schema, 'minimum') !== null ? `minimum ${declared(p.schema, 'minimum')}` : '', declared(p.schema, 'maximum') !== null ? `maximum ${declared(p.schema, 'maximum')}` : '']
    .filter(Boolean)
    .join(', ');
  const parts = [`${p.name} = ${a.sent}${range ? ` (the schema says ${range})` : ''} was accepted (HTTP ${a.attack.status})`];
  if (a.stored) parts.push('the follow-up read shows it stored');
  if (a.total) parts.push(`${a.total.name} went from ${a.total.before} to ${a.total.after}`);
  return parts.join('; ');
}

export const outOfRangeValues = defineCheck({
  id: 'api6-out-of-range-values',
  title: 'Out-of-range business values accepted',
  flag: 'UABF',
  owasp: 'API6:2023',
  cwe: 'CWE-20',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:L/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: MAX_POINTS * 4 + 1,
  techniques: ['API6.out-of-range-values'],
  description:
    `On creates (POST with a GET for the new object) and updates of objects the scan created (PUT/PATCH with a GET on the same path), takes up ` +
    `to ${MAX_POINTS} numeric body fields that carry a business range (quantities, counts, prices, amounts, ratings, scores, discounts, ` +
    'percentages by name, or a declared minimum) and sends key 1\'s normal request with one of them negative, then zero where the range ' +
    'excludes it (and 999 for a rating or 150 for a percentage without a declared maximum). Finding when the answer is 2xx and the follow-up ' +
    'read shows the value stored, or shows a computed total lowered by it. The CVSS vector follows the effect: a lowered total changes ' +
    'what is owed (integrity high), a stored negative quantity or price is a wrong amount (integrity low), a rating or other value out of ' +
    'range matters only where it is used (integrity low, harder to use). A create into a parent object (an item into a basket) names the ' +
    'caller\'s own parent, as its login answer or its objects told (the description\'s example may name another user\'s).',
  coverage:
    'Needs a GET that reads the object back. Values past a declared maximum are the API4 size-limit check\'s. Business ranges that only the ' +
    'API knows (a discount code limit, stock levels) and fields whose names say nothing are not tried; the caller\'s own account record is ' +
    'never written (only objects the scan created). A value that is stored under another name is not seen.',
  remediation:
    'Validate business ranges on the server for every create and update: quantities at least 1, prices and amounts positive, ratings and ' +
    'percentages within their scale, and compute totals from validated values (never from client-sent totals). Declare the ranges in the ' +
    'schema (minimum, maximum, exclusiveMinimum) and enforce them.',
  references: [OWASP_API6, 'https://cwe.mitre.org/data/definitions/20.html', 'https://owasp.org/www-community/vulnerabilities/Business_logic_vulnerability'],
  appliesTo: (e: Endpoint) =>
    (e.flags.includes('UABF') || e.flags.includes('BOPLA')) && ['POST', 'PUT', 'PATCH'].includes(e.method) && /json/i.test(e.request_body?.content_type ?? '') &&
    schemaType(e.request_body?.schema ?? null) === 'object',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const found0 = await targetFor(ctx, ep);
    // The caller's own record (restore) is not an object the scan created.
    if (!found0 || found0.restore || !isObj(found0.request.bodyValue)) return;
    // A create into a parent object (an item into a basket) goes into the caller's own, as the ledger knows it.
    const target = ep.method === 'POST' ? { ...found0, request: withOwnParents(ctx, ep, found0.request, 1) } : found0;
    const candidates: Candidate[] = [];
    for (const point of injectionPoints(ctx, ep, target.request, { optionalQuery: false })) {
      const kind = kindOf(point);
      if (kind) candidates.push({ point, kind });
    }
    const found: Accepted[] = [];
    for (const c of candidates.slice(0, MAX_POINTS)) {
      for (const v of attackValues(c)) {
        const a = await tryValue(ctx, target, c, v);
        if (a) {
          found.push(a);
          break;
        }
      }
    }
    if (!found.length) return;
    found.sort((a, b) => cvssScore(cvssOf(b)) - cvssScore(cvssOf(a)));
    const top = found[0]!;
    yield {
      confidence: top.stored ? 'high' : 'medium',
      cvss: withPrivileges(ctx, cvssOf(top)),
      parameter: found.map((a) => a.candidate.point.name).join(', '),
      description:
        `${describeEndpoint(ep)} accepts values outside their business range: ${found.map(describeAccepted).join('. ')}. ` +
        (top.total
          ? 'The server computed with the value: a client can lower what it pays or receives credit it is not owed.'
          : 'The rule is not enforced on the server, so clients can store values the business logic does not expect.'),
      notes: found.map((a) => `${a.candidate.point.name}: sent ${a.sent} -> HTTP ${a.attack.status}${a.stored ? ', read back as sent' : ''}${a.total ? `, ${a.total.name} ${a.total.before} -> ${a.total.after}` : ''}.`),
      exchanges: [
        ...(target.beforeExchange ? [{ label: 'Baseline: the object with normal values', exchange: target.beforeExchange }] : []),
        { label: `Attack: ${top.candidate.point.name} = ${top.sent}`, exchange: top.attack },
        { label: 'Follow-up read', exchange: top.read },
      ],
      reproduce: top.attack,
      // The value out of its range, as the answer (and the read after it) keeps it.
      proof: { marker: memberMarker(top.attack, top.candidate.point.name.split('.').at(-1)!.replace(/\[\d+\]$/, ''), top.sent) ?? undefined },
    };
  },
});
