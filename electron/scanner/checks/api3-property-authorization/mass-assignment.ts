// API3:2023 Broken Object Property Level Authorization, the write side: properties a client may set
// but should not (mass assignment), proven by reading the object back.

import type { Endpoint, JsonSchema } from '../../../../shared/contract';
import type { Exchange, KeyNumber } from '../../http/exchange';
import { fillPath, mutate, pathParamNames, type PreparedRequest } from '../../requests';
import { createdId, normalizeTemplate } from '../../resources';
import { defineCheck, describeEndpoint } from '../common/helpers';
import {
    asKey,
    createdBy,
    identityValueFor,
    isObj,
    newMarker,
    propOf,
    readAs,
    readerOf,
    resourceObject,
    sameValue,
    schemaShape,
    schemaType,
    type Json,
} from '../common/objects';
import type { CheckContext } from '../types';
import { OWASP_API3 } from '../common/references';


// ---------------------------------------------------------------- mass assignment

/** SCANNER.md's privilege-like keys, sent when the request schema does not declare them. */
const PRIVILEGE_KEYS = ['isAdmin', 'is_admin', 'admin', 'role', 'balance', 'credits', 'owner_id', 'verified'];
const PRIVILEGED_NAME = /admin|role|privilege|permission|superuser|staff|verified|approved|balance|credit|wallet|owner|user_?id|account_?id|status|total|price|amount|discount|points|plan|tier|quota|limit/i;
const IDENTITY_NAME = /^(id|_id|uuid|guid|username|user_name|login|email|e_?mail|password|passwd|pwd)$/i;
const OWNER_NAME = /^(owner|user|account|customer|member|created_?by|author)[-_]?(id|uuid)?$/i;
const RISKY_STRING = /url|uri|link|href|avatar|image|photo|icon|phone|token|secret|key|hash|salt/i;

const COST_NAME = /price|total|amount|cost|fee|subtotal|charge|due/i;
const GAIN_NAME = /balance|credit|wallet|points|bonus|quota|limit|reward/i;
const PREFERRED_ENUM = /admin|super|owner|root|paid|deliver|complet|approv|verif|active|success|shipped|premium|enterprise|gold/i;

/** A value the client should not be able to set, different from what the object has. */
function attackValue(ctx: CheckContext, name: string, schema: JsonSchema | null, before: unknown): unknown {
  const type = schemaType(schema) ?? (before === undefined || before === null ? undefined : Array.isArray(before) ? 'array' : typeof before);
  const differs = (v: unknown) => (before !== undefined && sameValue(v, before) ? undefined : v);
  if (OWNER_NAME.test(name)) {
    const other = ctx.hasKey2 ? identityValueFor(ctx, 2, 'userId') : null;
    if (!other) return undefined;
    return differs(type === 'integer' || type === 'number' || typeof before === 'number' ? (/^\d+$/.test(other) ? Number(other) : undefined) : other);
  }
  if (/^roles$/i.test(name) || (type === 'array' && /role|permission|group|scope/i.test(name))) return ['admin'];
  if (/role/i.test(name) && (type === 'string' || type === undefined)) {
    const options = Array.isArray(schema?.enum) ? (schema!.enum as unknown[]).filter((x): x is string => typeof x === 'string') : [];
    return differs(options.find((o) => PREFERRED_ENUM.test(o)) ?? (options.length ? undefined : 'admin'));
  }
  if (type === 'boolean' || (type === undefined && /^(is_?)?(admin|verified|approved|staff|superuser)$/i.test(name))) return typeof before === 'boolean' ? !before : true;
  if (type === 'integer' || type === 'number') {
    const int = type === 'integer' || (typeof before === 'number' && Number.isInteger(before) && !COST_NAME.test(name));
    if (COST_NAME.test(name)) return differs(int ? 1 : 0.01) ?? (int ? 2 : 0.02);
    const base = typeof before === 'number' ? before : 0;
    return GAIN_NAME.test(name) ? base + 31337 : differs(31337) ?? 31338;
  }
  if (type === 'string') {
    if (Array.isArray(schema?.enum)) {
      const options = (schema!.enum as unknown[]).filter((x): x is string => typeof x === 'string' && x !== before);
      return options.find((o) => PREFERRED_ENUM.test(o)) ?? options[0];
    }
    const format = typeof schema?.format === 'string' ? schema.format : '';
    if (format === 'date-time' || (/(_at|At|time|date)$/.test(name) && !format)) return differs('2001-02-03T04:05:06.000Z');
    if (format === 'date') return differs('2001-02-03');
    if (format || schema?.pattern || RISKY_STRING.test(name)) return undefined;
    return newMarker('pclma');
  }
  return undefined;
}

export interface Target {
  /** Reads the object the attack wrote (by the id its answer gives for a create). */
  readBack(attack: Exchange, key: KeyNumber): Promise<Exchange | null>;
  /** The object before the attack (a pre-read, or a normal create's answer). */
  before: Json | null;
  beforeExchange: Exchange | null;
  request: PreparedRequest;
  /** Not an object the scan created (a /me-like account): restore what stuck. */
  restore: boolean;
}

/** What a write changes and how to read it back: a create's new object, an object the scan created, or the caller's /me-like record (restore). */
export async function targetFor(ctx: CheckContext, ep: Endpoint): Promise<Target | null> {
  const hasParams = pathParamNames(ep.path).length > 0;
  if (ep.method === 'POST') {
    // A create: read the new object through the GET that consumes its id.
    const template = normalizeTemplate(ep.path);
    const consumer = ctx.resources
      .consumersOf(ep)
      .find((c) => c.method === 'GET' && normalizeTemplate(c.path).startsWith(`${template}/`) && normalizeTemplate(c.path).split('/').length === template.split('/').length + 1);
    if (!consumer) return null;
    const request = await ctx.prepare(ep, 1, 'write');
    if (!request) return null;
    const normal = await ctx.baseline('key1');
    const param = pathParamNames(consumer.path).slice(-1)[0]!;
    const collection = template.split('/').filter((s) => s && s !== '{}').pop() ?? null;
    return {
      request,
      before: normal?.ok ? resourceObject(normal.json()) : null,
      beforeExchange: normal,
      restore: false,
      readBack: async (attack, key) => {
        const found = createdId(attack, param, collection);
        if (!found) return null;
        const values = { ...Object.fromEntries(Object.entries(request.pathValues).map(([k, v]) => [k, v.value])), [param]: found.id };
        return readAs(ctx, consumer, ctx.url(fillPath(consumer.path, values)), key);
      },
    };
  }
  const reader = readerOf(ctx, ep);
  if (!reader) return null;
  const request = await ctx.prepare(ep, 1, 'write');
  if (!request) return null;
  if (hasParams && !createdBy(ctx, request, 1)) return null;
  const pre = await readAs(ctx, reader, request.url, 1);
  if (!pre.ok) return null;
  return {
    request,
    before: resourceObject(pre.json()),
    beforeExchange: pre,
    restore: !hasParams,
    readBack: (_attack, key) => readAs(ctx, reader, request.url, key),
  };
}

interface Stuck {
  name: string;
  sent: unknown;
  before: unknown;
}

export const massAssignment = defineCheck({
  id: 'api3-mass-assignment',
  title: 'Mass assignment: properties the client should not set are stored',
  flag: 'BOPLA',
  owasp: 'API3:2023',
  cwe: 'CWE-915',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 8,
  needsKey2: false,
  techniques: ['API3.1'],
  description:
    'On creates (POST with a GET for the new object) and updates (PUT/PATCH with a GET on the same path; objects the scan created, or the ' +
    'caller\'s own /me-like record), sends key 1\'s normal body plus, in one request, the schema\'s readOnly properties, and in another the ' +
    `privilege-like keys the request schema does not declare (${PRIVILEGE_KEYS.join(', ')}), each with a value that differs from the object's ` +
    'current one (admin roles, flipped flags, changed balances and prices, a dated timestamp, a marker string, key 2\'s user id for owner ' +
    'fields). Finding only when the follow-up read shows the value stuck. What stuck on the caller\'s own record is put back afterwards.',
  coverage:
    'Needs a GET that reads what was written. Nested properties are not tried; identity fields (id, username, e-mail, password) are never sent. ' +
    'A value that sticks only under another name than the one sent is not seen.',
  remediation:
    'Bind request bodies to an explicit allow-list of writable properties per operation (a DTO or schema validation with ' +
    '`additionalProperties: false`), ignore or reject `readOnly` properties in requests, and set owner, role, status and monetary fields ' +
    'only on the server.',
  references: [OWASP_API3, 'https://cwe.mitre.org/data/definitions/915.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Mass_Assignment_Cheat_Sheet.html'],
  appliesTo: (e) =>
    e.flags.includes('BOPLA') && ['POST', 'PUT', 'PATCH'].includes(e.method) && /json/i.test(e.request_body?.content_type ?? '') && schemaType(e.request_body?.schema ?? null) === 'object',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const target = await targetFor(ctx, ep);
    if (!target || !isObj(target.request.bodyValue)) return;
    const shape = schemaShape(ep.request_body?.schema ?? null);
    const declared = new Set(Object.keys(shape.props).map((k) => k.toLowerCase().replace(/[-_]/g, '')));
    const before = target.before;
    const readOnly: Json = {};
    for (const [name, s] of Object.entries(shape.props)) {
      if (s?.readOnly !== true || IDENTITY_NAME.test(name)) continue;
      const v = attackValue(ctx, name, s, propOf(before, name).value);
      if (v !== undefined) readOnly[name] = v;
    }
    const undeclared: Json = {};
    for (const name of PRIVILEGE_KEYS) {
      if (declared.has(name.toLowerCase().replace(/[-_]/g, ''))) continue;
      const v = attackValue(ctx, name, null, propOf(before, name).value);
      if (v !== undefined) undeclared[name] = v;
    }
    const stuck: Stuck[] = [];
    const shown: { label: string; exchange: Exchange }[] = [];
    const restoreValues: Json = {};
    for (const [label, extra] of [
      ['readOnly properties', readOnly],
      ['undeclared privilege-like properties', undeclared],
    ] as const) {
      if (!Object.keys(extra).length || ctx.budgetLeft() < 2) continue;
      const body = { ...(target.request.bodyValue as Json), ...extra };
      const attack = await ctx.sendPrepared(mutate(target.request, { bodyValue: body }), asKey(1));
      if (!attack.ok) continue;
      let read = await target.readBack(attack, 1);
      const owner = Object.keys(extra).some((k) => OWNER_NAME.test(k));
      if (read && !read.ok && owner && ctx.hasKey2 && ctx.budgetLeft() > 0) read = await target.readBack(attack, 2);
      if (!read?.ok) continue;
      const after = resourceObject(read.json());
      const found: Stuck[] = [];
      for (const [name, sent] of Object.entries(extra)) {
        const got = propOf(after, name);
        const had = propOf(before, name);
        if (!got.found || !sameValue(sent, got.value) || (had.found && sameValue(sent, had.value))) continue;
        found.push({ name, sent, before: had.found ? had.value : undefined });
        if (had.found) restoreValues[got.name] = had.value;
      }
      if (!found.length) continue;
      stuck.push(...found);
      shown.push({ label: `Attack: ${label}`, exchange: attack }, { label: 'Follow-up read', exchange: read });
    }
    if (!stuck.length) return;
    // Put the caller's own record back (a /me-like account is not an object the scan created).
    if (target.restore && Object.keys(restoreValues).length && ctx.budgetLeft() > 0) {
      const undo = await ctx.sendPrepared(mutate(target.request, { bodyValue: { ...(target.request.bodyValue as Json), ...restoreValues } }), asKey(1));
      if (!undo.ok) ctx.note(`${describeEndpoint(ep)}: could not restore ${Object.keys(restoreValues).join(', ')} after the mass-assignment test (HTTP ${undo.status}).`, 'problem');
    }
    const privileged = stuck.some((s) => PRIVILEGED_NAME.test(s.name));
    const list = stuck.map((s) => `${s.name}: ${JSON.stringify(s.before)} -> ${JSON.stringify(s.sent)}`);
    yield {
      cvss: privileged ? undefined : 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:L/A:N',
      description:
        `${describeEndpoint(ep)} stored properties the client should not be able to set; the follow-up read shows them: ${list.join('; ')}. ` +
        (privileged ? 'A user can raise their own privileges or change protected business values. ' : 'Server-managed values can be forged. ') +
        (target.restore && Object.keys(restoreValues).length ? 'The scan put the previous values back afterwards.' : ''),
      notes: [`Properties that stuck: ${stuck.map((s) => s.name).join(', ')}.`],
      exchanges: [...(target.beforeExchange ? [{ label: 'Baseline: the object before', exchange: target.beforeExchange }] : []), ...shown],
      reproduce: shown[0]!.exchange,
    };
  },
});

// ---------------------------------------------------------------- excessive data exposure
