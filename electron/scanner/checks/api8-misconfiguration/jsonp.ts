// API8:2023 Security Misconfiguration: JSONP — a callback parameter that turns a JSON answer into a
// script any site may load with the visitor's cookies.

import type { Exchange } from '../../http/exchange';
import { mutate } from '../../requests';
import { compareBodies, isEmptyBody } from '../../similarity';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { AS_KEY1 } from '../common/input-points';
import { identityMarks, marksIn, refused } from '../common/objects';
import { OWASP_API8 } from '../common/references';
import type { CheckContext } from '../types';

const PARAMS = ['callback', 'jsonp', 'cb'] as const;
/** Another site loads only what an anonymous visitor gets: low. */
const ANONYMOUS_DATA_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N';
/** Browsers will not run it, or the data is public: informational (no impact). */
const NO_IMPACT_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:N/A:N';

interface Wrap {
  param: string;
  name: string;
  /** The wrapped JSON text. */
  data: string;
}

/** The callback a body calls with data: `name(...)`, optionally behind `/**\/` and a `typeof name === 'function' &&` guard. */
export function wrappedCall(body: string, names: ReadonlyMap<string, string>): Wrap | null {
  const text = body.trim();
  for (const [param, name] of names) {
    const m = new RegExp(`^(?:/\\*\\*/)?\\s*(?:typeof\\s+${name}\\s*===?\\s*['"]function['"]\\s*&&\\s*)?${name}\\s*\\(`).exec(text);
    if (!m) continue;
    const close = text.lastIndexOf(')');
    if (close <= m[0].length) continue;
    return { param, name, data: text.slice(m[0].length, close).trim() };
  }
  return null;
}

/** The wrapped data is the normal answer's: the same values, a part of them, or JSON of the very same shape. */
export function wrapsTheAnswer(data: string, normal: Exchange | string): boolean {
  const sim = compareBodies(data, normal);
  // Counters and timestamps move between two reads (statistics while other checks write): the same shape counts too.
  return sim.values >= 0.8 || sim.contained >= 0.9 || (sim.json && sim.structure >= 0.95);
}

/** Whether browsers run the answer from a cross-site <script src>: a JavaScript type, or a non-blocked type without nosniff. */
function loadableAsScript(ex: Exchange): boolean {
  const ct = ex.contentType.split(';')[0]!.trim();
  if (/(java|ecma)script$/.test(ct)) return true;
  // Opaque-response blocking drops JSON, HTML and XML to cross-site scripts; nosniff makes every other type fail as a script.
  if (/json|html|xml/.test(ct) || /nosniff/i.test(ex.header('x-content-type-options') ?? '')) return false;
  return ct === '' || ct === 'text/plain' || ct === 'application/octet-stream';
}

/** The scan's identity travels on its own in cross-site requests: a cookie session or basic auth. */
function ambientCredentials(ctx: CheckContext): boolean {
  return ctx.credential(1) === null || ctx.authSpec().placements.some((p) => p.in === 'cookie' || p.format === 'basic');
}

export const jsonpCallback = defineCheck({
  id: 'api8-jsonp',
  title: 'JSONP callback wraps API data',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-346',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 3,
  description:
    `GETs whose key-1 answer is JSON are sent again with ${PARAMS.map((p) => `${p}=<random name>`).join(', ')} (a different name each, so the ` +
    'answer tells which parameter works; callback alone if the three are refused). Finding: the answer is a call of that name with the ' +
    'baseline\'s data. High when browsers will run it from another site (a JavaScript type, or a sniffable one without nosniff), the data is ' +
    'the caller\'s (a request without credentials does not get it) and the credential travels on its own (cookie session or basic auth): any ' +
    'site the user visits reads it. Low with the caller\'s data behind header tokens; info for public data or a type browsers block.',
  coverage:
    'Only the three common parameter names; GET endpoints with a JSON baseline. Whether the scan\'s credential is a cookie is taken from the ' +
    'identity (a cookie session) and the spec\'s placement.',
  remediation:
    'Remove JSONP support: serve JSON only (application/json with nosniff) and use CORS with an allow-list for cross-origin reads. Where JSONP ' +
    'must stay, serve only public data through it and never with cookie authentication.',
  references: [
    OWASP_API8,
    'https://cwe.mitre.org/data/definitions/346.html',
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/11-Client-side_Testing/13-Testing_for_Cross_Site_Script_Inclusion',
  ],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method === 'GET',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const baseline = await ctx.baseline('key1');
    const request = await ctx.baselineRequest(ep, 'key1');
    if (!baseline?.ok || !request || !/json/.test(baseline.contentType) || baseline.json() === undefined || isEmptyBody(baseline)) return;
    let names = new Map<string, string>(PARAMS.map((p) => [p, `pcljp${ctx.random.hex(4)}`]));
    let attack = await ctx.sendPrepared(mutate(request, { query: Object.fromEntries(names) }), AS_KEY1);
    if (refused(attack) && ctx.budgetLeft() > 0) {
      names = new Map([['callback', `pcljp${ctx.random.hex(4)}`]]);
      attack = await ctx.sendPrepared(mutate(request, { query: Object.fromEntries(names) }), AS_KEY1);
    }
    if (!attack.ok) return;
    const wrap = wrappedCall(attack.body, names);
    if (!wrap) return;
    const alike = (normal: Exchange) => wrapsTheAnswer(wrap.data, normal);
    // The shared baseline may predate other checks' writes (a profile changed since): compare with the normal answer now.
    if (!alike(baseline) && (ctx.budgetLeft() <= 0 || !alike(await ctx.sendPrepared(request, AS_KEY1)))) return;
    const anon = await ctx.baseline('anonymous');
    const callerData = (!!anon && refused(anon)) || marksIn(identityMarks(ctx, 1), wrap.data).length > 0;
    const script = loadableAsScript(attack);
    const ambient = ambientCredentials(ctx);
    // What another site gains: the user's data (ambient credential), public data only, or nothing (browsers will not run it).
    const cvss = !script || !callerData ? NO_IMPACT_CVSS : ambient ? undefined : ANONYMOUS_DATA_CVSS;
    const why = !script
      ? `Browsers will not run it from another site (${attack.contentType || 'no Content-Type'}${/nosniff/i.test(attack.header('x-content-type-options') ?? '') ? ', nosniff' : ''}), so it is a latent risk.`
      : !callerData
        ? 'The data is public (a request without credentials gets it too), so nothing private leaks; the callback is still a script any site can load.'
        : ambient
          ? 'The credential is a cookie (or basic auth) the browser sends by itself: any site the user visits can load this URL in a <script> tag and read the user\'s data.'
          : 'The credential is a header a cross-site page cannot send, so another site gets only what an anonymous visitor gets — unless the API also accepts cookies.';
    yield {
      parameter: wrap.param,
      cvss,
      description:
        `${describeEndpoint(ep)} honours ${wrap.param}=: with ${wrap.param}=${wrap.name} the JSON answer comes back as the script ` +
        `${wrap.name}(...) (HTTP ${attack.status}, ${attack.contentType || 'no Content-Type'}) carrying the same data as the normal answer. ${why}`,
      notes: [`Data seen by key 1: ${callerData ? 'its own (refused without credentials)' : 'public'}; credential: ${ambient ? 'cookie or basic (sent by the browser)' : 'header token'}.`],
      exchanges: [
        { label: 'Baseline', exchange: baseline },
        { label: `Attack: ${wrap.param}=${wrap.name}`, exchange: attack },
      ],
      reproduce: attack,
      // The answer wrapped in a call of the function named: the script another site loads.
      proof: { marker: `${wrap.name}(` },
    };
  },
});
