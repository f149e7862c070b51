// API5:2023 Broken Function Level Authorization: administrative and role-bound operations that
// answer a lower-privileged identity, and methods the spec does not declare that still change
// objects the scan created.

import type { Endpoint } from '../../../../shared/contract';
import { modeOf } from '../../baselines';
import { LOWER, PRIVILEGED, type Exchange, type KeyNumber } from '../../http/exchange';
import { isMeLike } from '../../identities/verify';
import { mutate, pathParamNames } from '../../requests';
import { endpointsAtTemplate } from '../../resources';
import { isEmptyBody } from '../../similarity';
import { defineCheck, describeEndpoint } from '../common/helpers';
import {
    asKey,
    carriesDataOf,
    createdBy,
    fitMarker,
    identityMarks,
    keyLabel,
    looksLikeError,
    markerField,
    marksIn,
    newMarker,
    otherKey,
    readAs,
    refused,
    resourceObject,
    responseSchema,
    type Json,
} from '../common/objects';
import type { CheckContext } from '../types';
import { OWASP_API5 } from '../common/references';

export const REFS = [OWASP_API5, 'https://cwe.mitre.org/data/definitions/285.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Authorization_Cheat_Sheet.html'];

const ADMIN_WORD = /(^|[^a-z])(admin|admins|administrator|administration|internal|superuser|sudo|staff|moderator|moderation|manage|management|backoffice|back-office|privileged|impersonate|impersonation)([^a-z]|$)/i;

function words(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
}

/** Where the operation says it is administrative: a path segment, else its operation id, tags or summary. */
export function adminSignal(e: Endpoint): string | null {
  const seg = e.path.split('/').find((s) => s && !s.includes('{') && ADMIN_WORD.test(s));
  if (seg) return `the path segment "${seg}"`;
  if (e.operation_id && ADMIN_WORD.test(words(e.operation_id))) return `the operation id "${e.operation_id}"`;
  const tag = e.tags.find((t) => ADMIN_WORD.test(words(t)));
  if (tag) return `the tag "${tag}"`;
  if (ADMIN_WORD.test(e.summary)) return 'its summary';
  return null;
}

/** The lower-privileged identity: the scan's lower role, else the key the user marked (key 2 by default). */
export function lowerKey(ctx: CheckContext): KeyNumber | null {
  if (ctx.identities.lower) return LOWER;
  const low = ctx.options.lowerPrivilegeKey;
  if (low === 2 && !ctx.hasKey2) return null;
  return low;
}

/** Whose operations (and privileges) the lower identity tries: the privileged role when the scan has one, else the other user. */
export function higherKey(ctx: CheckContext, low: KeyNumber): KeyNumber | null {
  if (ctx.identities.privileged) return PRIVILEGED;
  if (low === LOWER) return 1;
  const high = otherKey(low);
  return high === 2 && !ctx.hasKey2 ? null : high;
}

// ---------------------------------------------------------------- API5.1 privileged operations

export const bflaPrivilegedOperation = defineCheck({
  id: 'api5-bfla-admin-operation',
  title: 'Administrative operation available to a lower-privileged user',
  flag: 'BFLA',
  owasp: 'API5:2023',
  cwe: 'CWE-285',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 2,
  needsKey2: false,
  techniques: ['API5.1'],
  description:
    'Operations that look administrative (admin, internal, manage, staff, moderation... in a path segment, the operation id, a tag or the ' +
    'summary) are called with the lower-privileged key (the scan setting `lower_privilege_key`, key 2 by default). Reads always; writes and ' +
    'deletes only on objects the scan created. Finding: the lower key gets a 2xx with content (not an error body) while a request without ' +
    'credentials is refused; high confidence when its answer matches the other key\'s or lists other users\' data.',
  coverage:
    'Needs the lower-privileged key. Which operations are administrative is read from names and tags, so a privileged operation with a plain ' +
    'name is missed unless the user flags it BFLA and names it; when both keys are ordinary users the lower key\'s success on an admin-named ' +
    'operation is still reported (the operation is meant for administrators). Writes to objects the scan did not create are not sent.',
  remediation:
    'Deny by default: enforce role checks in one place (middleware or policy) for every administrative route and method, keep admin ' +
    'functions on a separate, separately authenticated surface where possible, and test authorization for each role.',
  references: REFS,
  appliesTo: (e) => e.flags.includes('BFLA') && adminSignal(e) !== null,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const low = lowerKey(ctx);
    if (!low) {
      ctx.skip('Needs the lower-privileged key (key 2 by default): the check calls administrative operations as the lower-privileged user.');
      return;
    }
    const high = higherKey(ctx, low);
    const signal = adminSignal(ep)!;
    const request = await ctx.prepare(ep, low);
    if (!request) return;
    if (ep.method !== 'GET' && pathParamNames(ep.path).length && !createdBy(ctx, request, low)) return;
    const anon = ep.method === 'GET' || ep.method === 'HEAD' ? await ctx.baseline('anonymous') : await ctx.sendPrepared(request, { kind: 'none' });
    if (!anon?.response || !refused(anon)) return;
    const attack = await ctx.sendPrepared(request, asKey(low));
    if (!attack.ok || looksLikeError(attack) || (ep.method === 'GET' && isEmptyBody(attack))) return;
    const reference = high !== null && ep.method === 'GET' ? await ctx.baseline(modeOf(high)) : null;
    const proofs: string[] = [];
    if (high !== null && reference?.ok && carriesDataOf(attack, reference)) proofs.push(`it gets the same data as ${keyLabel(high)}`);
    const others = high === null ? [] : marksIn(identityMarks(ctx, high), attack.body);
    if (others.length) proofs.push(`its answer lists the other user's data (${others.slice(0, 2).join(', ')})`);
    const declares403 = Object.keys(ep.responses).some((c) => c === '403' || c === '401');
    yield {
      confidence: proofs.length ? 'high' : 'medium',
      description:
        `${describeEndpoint(ep)} is administrative (${signal})${declares403 ? ' and the spec declares it can refuse callers' : ''}, yet the ` +
        `lower-privileged ${keyLabel(low)} got HTTP ${attack.status} with content${proofs.length ? ` — ${proofs.join('; ')}` : ''}, while a request ` +
        `without credentials gets ${anon.status}. The operation checks that the caller is signed in, not that they may use it.`,
      notes: [`Lower-privileged identity: ${keyLabel(low)}${low === LOWER ? ' (its role)' : ' (scan setting)'}. ${ctx.identities.how}.`],
      exchanges: [
        ...(reference && high !== null ? [{ label: `Baseline (${keyLabel(high)})`, exchange: reference }] : []),
        { label: 'Baseline', exchange: anon },
        { label: `Attack: the lower-privileged ${keyLabel(low)}`, exchange: attack },
      ],
      reproduce: attack,
    };
  },
});

// ---------------------------------------------------------------- API5.2 method swap

const SWAPS = ['PUT', 'PATCH', 'DELETE'] as const;

export const bflaMethodSwap = defineCheck({
  id: 'api5-bfla-method-swap',
  title: 'Undeclared HTTP method changes an object',
  flag: 'BFLA',
  owasp: 'API5:2023',
  cwe: 'CWE-650',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 11,
  needsKey2: false,
  techniques: ['API5.2'],
  description:
    'For a GET whose path the spec does not declare PUT, PATCH or DELETE for: on an object the scan created (or the caller\'s own /me-like ' +
    'record, never deleted), key 1 reads it, sends the undeclared method (PUT: the object read with a marker in a text field; PATCH: just ' +
    'that field), and reads it again. Finding: the undeclared method answered 2xx and the re-read shows the marker, or (DELETE) answers ' +
    '404/410 afterwards. A 2xx without an effect is not reported. Changes to the caller\'s own record are put back.',
  coverage:
    'Objects the scan did not create are never written; GET paths without a producing POST are tested only when /me-like. Applies to GET ' +
    'endpoints flagged BFLA or BOLA and /me-like ones.',
  remediation:
    'Route each path only for the methods it implements and answer 405 with an Allow header for the rest; apply the same authorization ' +
    'policy to every method of a route, and keep the OpenAPI document in step with the router.',
  references: [OWASP_API5, 'https://cwe.mitre.org/data/definitions/650.html', 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/06-Test_HTTP_Methods'],
  appliesTo: (e) => e.method === 'GET' && (e.flags.includes('BFLA') || e.flags.includes('BOLA') || (isMeLike(e) && e.flags.length > 0)),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const declared = new Set(endpointsAtTemplate(ctx.allEndpoints, ep.path).map((e) => e.method));
    const hasParams = pathParamNames(ep.path).length > 0;
    if (!hasParams && !isMeLike(ep)) return;
    for (const method of SWAPS) {
      if (declared.has(method) || (method === 'DELETE' && !hasParams) || ctx.budgetLeft() < 3) continue;
      const request = await ctx.prepare(ep, 1, method === 'DELETE' ? 'destroy' : 'write');
      if (!request || (hasParams && !createdBy(ctx, request, 1))) continue;
      const before = await readAs(ctx, ep, request.url, 1);
      if (!before.ok || isEmptyBody(before)) continue;
      if (method === 'DELETE') {
        const attack = await ctx.sendPrepared(mutate(request, { method, body: null, headers: { 'content-type': null } }), asKey(1));
        if (!attack.ok) continue;
        const after = await readAs(ctx, ep, request.url, 1);
        if (after.status !== 404 && after.status !== 410) continue;
        yield swapFinding(ctx, method, declared, `deleted the object (a GET afterwards answers ${after.status})`, [before, attack, after]);
        continue;
      }
      const current = resourceObject(before.json());
      const field = current ? markerField(responseSchema(ep, before.status), current) : null;
      if (!current || !field || typeof current[field] !== 'string') continue;
      const value = fitMarker(newMarker('pclms'), null);
      const body: Json = method === 'PUT' ? { ...current, [field]: value } : { [field]: value };
      const attack = await ctx.sendPrepared(mutate(request, { method, bodyValue: body, headers: { 'content-type': 'application/json' } }), asKey(1));
      if (!attack.ok) continue;
      const after = await readAs(ctx, ep, request.url, 1);
      if (!after.ok || !after.body.includes(value)) continue;
      if (!hasParams && ctx.budgetLeft() > 0) {
        const undo = await ctx.sendPrepared(mutate(request, { method, bodyValue: method === 'PUT' ? current : { [field]: current[field] }, headers: { 'content-type': 'application/json' } }), asKey(1));
        if (!undo.ok) ctx.note(`${describeEndpoint(ep)}: could not restore ${field} after the method-swap test (HTTP ${undo.status}).`, 'problem');
      }
      yield swapFinding(ctx, method, declared, `changed ${field} (the re-read shows "${value}")`, [before, attack, after]);
    }
  },
});

function swapFinding(ctx: CheckContext, method: string, declared: Set<string>, effect: string, [before, attack, after]: Exchange[]) {
  const ep = ctx.endpoint;
  return {
    method,
    parameter: null,
    description:
      `${method} ${ep.path} is not in the spec (it declares ${[...declared].sort().join(', ')} for this path), yet key 1's ${method} answered ` +
      `${attack!.status} and ${effect}. Undeclared methods bypass the review and the authorization rules written for the declared ones.`,
    exchanges: [
      { label: 'Baseline: key 1 reads the object', exchange: before! },
      { label: `Attack: undeclared ${method}`, exchange: attack! },
      { label: 'Key 1 reads it again', exchange: after! },
    ],
    reproduce: attack,
  };
}

// ---------------------------------------------------------------- API5.3 admin path insertion
// ---------------------------------------------------------------- API5.1 by role

export const bflaRoleOperation = defineCheck({
  id: 'api5-bfla-role-operation',
  title: "The lower-privileged role reaches what an ordinary user is refused",
  flag: 'BKEN_AUTH',
  owasp: 'API5:2023',
  cwe: 'CWE-285',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 1,
  techniques: ['API5.1'],
  description:
    'With a privileged and a lower-privileged identity in the scan: reads (GET without free path parameters) that the privileged identity ' +
    'gets, that a request without credentials is refused, and that an ordinary user identity is refused with 401 or 403 — the API itself ' +
    'says the operation needs a privilege. Finding: the lower-privileged identity gets it, with the privileged identity\'s data.',
  coverage:
    'Needs identities with the privileged and lower roles and an ordinary user; reads only (baselines and one confirming read). An ' +
    'operation every role may use is never reported: only one the ordinary user is refused.',
  remediation:
    'Check the caller\'s role for every operation in one authorization layer (deny by default), and give each role only the permissions it ' +
    'needs; test each role against each privileged operation.',
  references: REFS,
  appliesTo: (e) => e.method === 'GET' && e.flags.includes('BKEN_AUTH') && pathParamNames(e.path).length === 0,
  async *run(ctx) {
    if (!ctx.identities.privileged || !ctx.identities.lower) {
      ctx.skip('Needs a privileged and a lower-privileged identity (roles in the scan configuration).');
      return;
    }
    const ep = ctx.endpoint;
    const [privileged, anon, user] = [await ctx.baseline('privileged'), await ctx.baseline('anonymous'), await ctx.baseline('key1')];
    if (!privileged?.ok || isEmptyBody(privileged) || !refused(anon) || !user || (user.status !== 401 && user.status !== 403)) return;
    const lower = await ctx.baseline('lower');
    if (!lower || !carriesDataOf(lower, privileged) || looksLikeError(lower)) return;
    // Once more, so a transient answer is not a finding.
    const request = await ctx.baselineRequest(ep, 'lower');
    const again = request && ctx.budgetLeft() > 0 ? await ctx.sendPrepared(request, { kind: 'key', key: LOWER }) : null;
    if (!again || !carriesDataOf(again, privileged)) return;
    yield {
      description:
        `${describeEndpoint(ep)} needs a privilege: the privileged ${keyLabel(PRIVILEGED)} gets it (${privileged.status}) while the ordinary ` +
        `${keyLabel(1)} is refused (${user.status}) and a request without credentials gets ${anon!.status}. Yet the lower-privileged ` +
        `${keyLabel(LOWER)} gets ${lower.status} with the privileged identity's data.`,
      notes: ['Roles come from the scan configuration; the ordinary user\'s refusal shows the API treats this operation as privileged.'],
      exchanges: [
        { label: `Baseline (${keyLabel(PRIVILEGED)})`, exchange: privileged },
        { label: `Baseline (${keyLabel(1)})`, exchange: user },
        { label: 'Baseline', exchange: anon! },
        { label: `Attack: the lower-privileged ${keyLabel(LOWER)}`, exchange: lower },
        { label: 'Confirmation', exchange: again },
      ],
      reproduce: again,
    };
  },
});

