// API5:2023 Broken Function Level Authorization: an operation whose own description declares a request
// header that asserts a privilege (IsAdmin, X-Role...). Any client can set it; the check proves the API
// acts on it — a delete that happens only with the header, a read refused without it.

import type { Endpoint, EndpointParameter } from '../../../../shared/contract';
import { adjustCvss } from '../../cvss';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { mutate, type PreparedRequest } from '../../requests';
import { isEmptyBody, sameData } from '../../similarity';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { asKey, authRefused, looksLikeError, readerOf, readAs } from '../common/objects';
import { REFS } from './privileged-operations';

/** A header name that asserts a privilege: IsAdmin, X-Is-Admin, X-Admin, Role, X-User-Role, X-Superuser, Staff... */
const PRIVILEGE_HEADER = /^(x)?(is)?(admin|administrator|superuser|staff|root|privileged|moderator|internal)$|^(x)?(user)?roles?$/;

function privilegeHeader(e: Endpoint): EndpointParameter | null {
  if (e.graphql) return null;
  return e.parameters.find((p) => p.in === 'header' && PRIVILEGE_HEADER.test(p.name.toLowerCase().replace(/[^a-z]/g, ''))) ?? null;
}

/** The values that assert the privilege, and one that asserts nothing (the control). */
function valuesFor(p: EndpointParameter): { grant: string[]; control: string } {
  if (/role/i.test(p.name)) return { grant: ['admin'], control: 'user' };
  return { grant: ['true', 'True', '1'], control: 'false' };
}

const hasContent = (ex: Exchange) => ex.ok && !isEmptyBody(ex) && !looksLikeError(ex);
const gone = (ex: Exchange) => ex.status === 404 || ex.status === 410;

export const declaredPrivilegeHeader = defineCheck({
  id: 'api5-declared-privilege-header',
  title: 'A privilege header the client sets is obeyed',
  flag: 'BFLA',
  owasp: 'API5:2023',
  cwe: 'CWE-290',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:H',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 10,
  needsKey2: false,
  description:
    'For an operation whose description declares a request header named like a privilege (IsAdmin, X-Is-Admin, X-Admin, Role, X-User-Role, ' +
    'X-Superuser...): without credentials where the description asks for none, else as key 1. A DELETE of an object the write policy lets ' +
    'the scan delete: the object is read, the delete is sent with the header asserting nothing (false, user) and the object read again, then ' +
    'with the header asserting the privilege (true, True, 1, admin) and read again. Finding: the object survives the control and is gone ' +
    '(404/410) after the privileged delete. A GET: refused (401/403) with the header asserting nothing, a 2xx with content with the privilege.',
  coverage:
    'Only headers the operation\'s own description declares (undeclared admin headers on reads: api5-privilege-headers). Deletes only where ' +
    'the write policy allows them (objects the scan created, or existing ones with `writes: existing`), and only where a GET on the same ' +
    'path shows whether the object is there. Updates (PUT, PATCH) are not tried: their effect is not told apart from an ordinary update.',
  remediation:
    'Derive roles only from the authenticated identity on the server; never read a privilege from a header, a cookie or a body field the ' +
    'client controls, and remove such headers from the API\'s description.',
  references: [...REFS, 'https://cwe.mitre.org/data/definitions/290.html'],
  appliesTo: (e) => (e.method === 'DELETE' || e.method === 'GET') && privilegeHeader(e) !== null,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const header = privilegeHeader(ep)!;
    const { grant, control: controlValue } = valuesFor(header);
    const anonymous = !ctx.authSpec(ep).declaredSecured;
    const auth: RequestAuth = anonymous ? { kind: 'none' } : asKey(1);
    const request = await ctx.prepare(ep, 1, ep.method === 'DELETE' ? 'destroy' : 'read');
    if (!request) {
      ctx.holdBack('a delete with a privilege header goes only to objects the write policy allows', ep);
      return;
    }
    const withHeader = (value: string): PreparedRequest => mutate(request, { headers: { [header.name]: value } });
    const who = anonymous ? 'a request without credentials' : ctx.identityName(1);
    const cvss = adjustCvss(ctx.check.cvss, { PR: anonymous ? 'N' : 'L', ...(ep.method === 'GET' ? { C: 'H', I: 'N', A: 'N' } : {}) });

    if (ep.method === 'GET') {
      const control = await ctx.sendPrepared(withHeader(controlValue), auth);
      if (!authRefused(control)) return;
      for (const value of grant) {
        if (ctx.budgetLeft() <= 0) return;
        const attack = await ctx.sendPrepared(withHeader(value), auth);
        if (!hasContent(attack) || sameData(attack, control, 0.8)) continue;
        yield {
          parameter: header.name,
          cvss,
          description:
            `${describeEndpoint(ep)} refuses ${who} (HTTP ${control.status} with ${header.name}: ${controlValue}) but answers ${attack.status} with ` +
            `content when the request sets ${header.name}: ${value}. The operation's own description declares this header, and the API trusts it: ` +
            'any client can claim the privilege.',
          exchanges: [
            { label: `Control: ${header.name}: ${controlValue}`, exchange: control },
            { label: `Attack: ${header.name}: ${value}`, exchange: attack },
          ],
          reproduce: attack,
        };
        return;
      }
      return;
    }

    // A delete: the object must be there, survive the delete that asserts nothing, and be gone after the one that asserts the privilege.
    const reader = readerOf(ctx, ep);
    if (!reader) return;
    const before = await readAs(ctx, reader, request.url, 1);
    if (!hasContent(before)) return;
    const control = await ctx.sendPrepared(withHeader(controlValue), auth);
    const still = await readAs(ctx, reader, request.url, 1);
    if (!hasContent(still)) return;
    for (const value of grant) {
      if (ctx.budgetLeft() < 2) return;
      const attack = await ctx.sendPrepared(withHeader(value), auth);
      if (!attack.response || attack.status >= 400) continue;
      const after = await readAs(ctx, reader, request.url, 1);
      if (!gone(after)) continue;
      yield {
        parameter: header.name,
        cvss,
        description:
          `${describeEndpoint(ep)} deleted ${request.url.pathname} for ${who} once the request set ${header.name}: ${value}; with ${header.name}: ` +
          `${controlValue} the same delete answered ${control.status} and the object was still there. The operation's own description declares ` +
          'this header, and the API trusts it: any client can claim the privilege and delete objects.',
        notes: [`Read before: HTTP ${before.status}; after the control: HTTP ${still.status}; after the privileged delete: HTTP ${after.status}.`],
        exchanges: [
          { label: 'Baseline: the object before', exchange: before },
          { label: `Control: ${header.name}: ${controlValue}`, exchange: control },
          { label: 'Control read: the object is still there', exchange: still },
          { label: `Attack: ${header.name}: ${value}`, exchange: attack },
          { label: 'Proof: the object is gone', exchange: after },
        ],
        reproduce: attack,
      };
      return;
    }
  },
});
