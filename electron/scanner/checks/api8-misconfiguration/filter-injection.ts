// API8:2023 Security Misconfiguration (injection): LDAP search filters and XPath expressions built by
// pasting a value into the query text. Proven as the SQL and NoSQL checks prove theirs: a parse error
// of that language that a harmless value does not give (twice), or pairs in the language's own syntax
// (objectClass=*, count(/*)) where the always-true input answers like the real value, or with more
// entries, and the always-false one does not. Reads only.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { probeBlocked } from '../../probe-safety';
import type { SeededRandom } from '../../random';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { byPlace, reference } from '../common/injection';
import {
    AS_KEY1,
    bodyText,
    describePoint,
    otherAnswer,
    pointSource,
    sameAnswer,
    valueText,
    type InjectionPoint,
    type PointSource,
} from '../common/input-points';
import { OWASP_API8 } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';
import { gained } from './command-injection';
import { proveFamily, type Family, type Hit, type Pair } from './nosql-injection';

export const FILTER_POINTS = 2;
/** Names that usually end up in a directory or document query. */
const FILTER_NAME = /(user|uid|cn|login|name|filter|search|query|^q$|mail|account|member|group|^dn$|^ou$|owner|role)/i;

/** A query language pasted into: how to break it, and its always-true and always-false inputs. */
interface QueryLanguage {
  name: 'LDAP' | 'XPath';
  /** Values that leave the query unparseable. */
  breakers(v: string): string[];
  /** The language's error in an answer: a short excerpt, or null. */
  error(text: string): string | null;
  /** Pairs on the real value: the true input answers like it, the false one does not. */
  boolean(v: string, r: string): Family[];
  /** Pairs on no value: the true input matches every entry, the false one none. */
  widening(r: string): Family[];
}

const pair = (yes: string, no: string): Pair => ({ yes, no, label: [yes, no] });

/**
 * Error texts of LDAP libraries and servers about a search filter (OpenLDAP, JNDI, .NET, python-ldap,
 * ldap3, PHP): words that a JSON API's own validation does not use.
 */
const LDAP_ERROR =
  /Bad search filter|InvalidSearchFilterException|javax\.naming\.(?:directory\.)?\w*Exception|com\.sun\.jndi\.ldap|LDAPException|LdapException|ldap_search(?:_ext|_s)?\b|ldap\.FILTER_ERROR|LDAPInvalidFilterError|ldap3\.core\.exceptions|Novell\.Directory\.Ldap|System\.DirectoryServices|DirectoryServicesCOMException|(?:invalid|malformed|bad)\s+(?:ldap\s+)?(?:search\s+)?filter\b/i;

/** Error texts of XPath engines (JAXP, lxml/libxml2, .NET, PHP, Saxon, xpath.js). */
const XPATH_ERROR =
  /XPathException|javax\.xml\.xpath|XPathEvalError|XPathSyntaxError|lxml\.etree\.XPath|xmlXPath(?:Eval|CompOpEval|CompiledEval)|System\.Xml\.XPath|SimpleXMLElement::xpath|DOMXPath::(?:query|evaluate)|org\.apache\.xpath|XPST000\d|XPTY000\d|Invalid (?:XPath )?expression.{0,40}XPath|XPath (?:parse |syntax |evaluation )?error|Invalid XPath/i;

function excerpt(text: string, re: RegExp): string | null {
  const m = re.exec(text);
  if (!m) return null;
  // The match may start with the separator before it (a line break): the line is the one after.
  const at = m.index + (m[0].length - m[0].trimStart().length);
  const start = Math.max(text.lastIndexOf('\n', at) + 1, at - 80);
  const end = text.indexOf('\n', at);
  return text.slice(start, end < 0 ? at + 120 : Math.min(end, at + 120)).trim() || m[0].trim();
}

/**
 * A filter such as (&(objectClass=person)(uid=<value>)): a value that closes its item and adds one.
 * objectClass is present on every LDAP entry, so (objectClass=*) is always true, and a made-up class
 * never. A bare * is not used as proof: many search APIs take it as a wildcard on purpose.
 */
export const LDAP: QueryLanguage = {
  name: 'LDAP',
  breakers: (v) => [`${v})(`, `${v}(`],
  error: (text) => excerpt(text, LDAP_ERROR),
  boolean: (v, r) => [[pair(`${v})(objectClass=*`, `${v})(objectClass=${r}`), pair(`${v})(!(objectClass=${r})`, `${v})(!(objectClass=*)`)]],
  widening: (r) => [[pair('*)(objectClass=*', `${r})(objectClass=*`), pair(`*)(!(objectClass=${r})`, `${r})(!(objectClass=${r})`)]],
};

/**
 * A predicate such as [login='<value>']: conditions only XPath evaluates (count(/*) is 1 in any
 * document, string-length() is XPath's), so SQL and NoSQL never answer these pairs.
 */
export const XPATH: QueryLanguage = {
  name: 'XPath',
  breakers: (v) => [`${v}'`, `${v}"`],
  error: (text) => excerpt(text, XPATH_ERROR),
  boolean: (v) => [
    [pair(`${v}' and count(/*)=1 and '1'='1`, `${v}' and count(/*)=2 and '1'='1`), pair(`${v}' and string-length('ab')=2 and 'a'='a`, `${v}' and string-length('ab')=3 and 'a'='a`)],
  ],
  widening: (r) => [
    [pair(`${r}' or count(/*)=1 or 'a'='b`, `${r}' or count(/*)=2 or 'a'='b`), pair(`${r}' or string-length('ab')=2 or 'a'='b`, `${r}' or string-length('ab')=3 or 'a'='b`)],
  ],
};

/** The string values most likely to reach a filter (names like user, uid, cn, search first), at most FILTER_POINTS. */
export function filterPoints(points: readonly InjectionPoint[]): InjectionPoint[] {
  return points
    .filter((p) => p.where !== 'header' && p.type === 'string' && typeof p.value === 'string' && !p.schema?.enum && !['uuid', 'date', 'date-time', 'binary', 'byte'].includes(String(p.schema?.format ?? '')))
    .sort((a, b) => (FILTER_NAME.test(b.key) ? 1 : 0) - (FILTER_NAME.test(a.key) ? 1 : 0) || byPlace(a, b))
    .slice(0, FILTER_POINTS);
}

const token = (random: SeededRandom) => `pcl${random.alnum(8).toLowerCase()}`;

type Proof =
  | { kind: 'error'; point: InjectionPoint; payload: string; excerpt: string; attack: Exchange; control: Exchange; again: Exchange }
  | { kind: 'boolean' | 'widening'; point: InjectionPoint; hits: Hit[]; reference: Exchange };

/** The first proof of injection in the language through one of the points: an error, then boolean pairs, then widening pairs. */
async function prove(ctx: CheckContext, src: PointSource, baseline: Exchange, lang: QueryLanguage, points: InjectionPoint[]): Promise<Proof | 'budget' | null> {
  const send = async (name: string, value: string): Promise<{ point: InjectionPoint; ex: Exchange } | null> => {
    if (ctx.budgetLeft() <= 0) return null;
    const p = await src.get(name);
    return p ? { point: p, ex: await ctx.sendPrepared(p.with(value), AS_KEY1) } : null;
  };
  const r = token(ctx.random);
  // 1. The language's parse error, absent from the baseline and from a harmless value, seen twice.
  if (!lang.error(bodyText(baseline))) {
    for (const p of points) {
      for (const payload of lang.breakers(valueText(p))) {
        const attack = await send(p.name, payload);
        if (!attack) return 'budget';
        const found = lang.error(bodyText(attack.ex));
        if (!found) continue;
        const control = await send(p.name, `${valueText(p)}${r}`);
        if (!control) return 'budget';
        if (lang.error(bodyText(control.ex))) break;
        const again = await send(p.name, payload);
        if (!again) return 'budget';
        if (!lang.error(bodyText(again.ex))) break;
        return { kind: 'error', point: attack.point, payload, excerpt: found, attack: attack.ex, control: control.ex, again: again.ex };
      }
    }
  }
  // Pairs cost more requests: only for values whose name says they may reach a directory or a document query.
  const named = points.filter((p) => FILTER_NAME.test(p.key));
  if (!named.length) return null;
  // 2. Boolean pairs on the real value (it must answer with something the false input takes away).
  const fresh = baseline.ok ? await reference(ctx, src) : null;
  if (fresh?.ok && sameAnswer(fresh, baseline)) {
    const likeReal = (yes: Exchange, no: Exchange) => !!no.response && no.status < 500 && sameAnswer(yes, fresh) && otherAnswer(no, fresh);
    for (const p of named) {
      for (const family of lang.boolean(valueText(p), r)) {
        const outcome = await proveFamily(async (v) => (await send(p.name, String(v)))?.ex ?? null, family, likeReal);
        if (outcome === 'budget') return 'budget';
        if (typeof outcome === 'object') return { kind: 'boolean', point: p, hits: outcome.hits, reference: fresh };
      }
    }
  }
  // 3. Widening pairs: the true input matches more than the false one, twice.
  const wider = (yes: Exchange, no: Exchange) => !!yes.response && !!no.response && yes.status < 500 && no.status < 500 && gained(yes, no);
  for (const p of named) {
    for (const family of lang.widening(r)) {
      const outcome = await proveFamily(async (v) => (await send(p.name, String(v)))?.ex ?? null, family, wider);
      if (outcome === 'budget') return 'budget';
      if (typeof outcome === 'object') return { kind: 'widening', point: p, hits: outcome.hits, reference: fresh ?? baseline };
    }
  }
  return null;
}

function finding(ep: Endpoint, lang: QueryLanguage, proof: Proof, baseline: Exchange): FindingDraft {
  const where = describePoint(proof.point);
  const impact =
    lang.name === 'LDAP'
      ? 'An attacker can change the search: list every entry of the directory, read attributes the API never meant to show, or bypass a login that checks a filter.'
      : 'An attacker can change the XPath query: read every node of the document (other users\' records, secrets kept beside them), one condition at a time if need be.';
  if (proof.kind === 'error') {
    return {
      name: `${lang.name} injection (error-based)`,
      parameter: proof.point.name,
      description:
        `${describeEndpoint(ep)} puts ${where} into an ${lang.name} query unescaped: ${JSON.stringify(proof.payload)} made the answer (HTTP ${proof.attack.status}) ` +
        `carry the ${lang.name} error "${proof.excerpt}", twice, while the value with harmless letters appended did not (HTTP ${proof.control.status}). ${impact}`,
      notes: [`${where} = ${JSON.stringify(proof.payload)} -> ${lang.name} error; the same value followed by letters -> no error.`],
      exchanges: [
        { label: 'Baseline', exchange: baseline },
        { label: `Attack: ${proof.payload}`, exchange: proof.attack },
        { label: 'Control: the value followed by letters', exchange: proof.control },
        { label: 'Confirmation: the attack again', exchange: proof.again },
      ],
      reproduce: proof.attack,
    };
  }
  const [first, second] = proof.hits as [Hit, Hit];
  const how =
    proof.kind === 'boolean'
      ? `the always-true ${JSON.stringify(first.pair.label[0])} answered like the unchanged value and the always-false ${JSON.stringify(first.pair.label[1])} did not (HTTP ${first.no.status}, ${first.no.body.length} bytes instead of ${first.yes.body.length})`
      : `${JSON.stringify(first.pair.label[0])} matched more (HTTP ${first.yes.status}, ${first.yes.body.length} bytes) than ${JSON.stringify(first.pair.label[1])} (HTTP ${first.no.status}, ${first.no.body.length} bytes)`;
  return {
    name: `${lang.name} injection (${proof.kind === 'boolean' ? 'boolean-based' : 'filter widened'})`,
    parameter: proof.point.name,
    description:
      `${describeEndpoint(ep)} evaluates ${lang.name} syntax sent in ${where}: ${how}, and a second pair (${JSON.stringify(second.pair.label[0])} vs ` +
      `${JSON.stringify(second.pair.label[1])}) did the same. Both pairs use conditions only ${lang.name} evaluates. ${impact}`,
    notes: proof.hits.map((h) => `${h.pair.label[0]} -> HTTP ${h.yes.status} (${h.yes.body.length} bytes); ${h.pair.label[1]} -> HTTP ${h.no.status} (${h.no.body.length} bytes).`),
    exchanges: [
      { label: proof.kind === 'boolean' ? 'Baseline (re-sent)' : 'Baseline', exchange: proof.reference },
      { label: `Attack: ${first.pair.label[0]}`, exchange: first.yes },
      { label: `Control: ${first.pair.label[1]}`, exchange: first.no },
      { label: `Confirmation: ${second.pair.label[0]}`, exchange: second.yes },
      { label: `Control: ${second.pair.label[1]}`, exchange: second.no },
    ],
    reproduce: first.yes,
  };
}

/** Why the pairs were not sent to an operation that changes data (probe-safety.ts). */
const HELD_BACK = 'LDAP and XPath conditions that match every entry never go to operations that change data (they could widen an update or a delete)';

async function* run(ctx: CheckContext, lang: QueryLanguage): AsyncGenerator<FindingDraft> {
  const ep = ctx.endpoint;
  const src = await pointSource(ctx, { createdPaths: ep.method === 'GET' });
  const baseline = await ctx.baseline('key1');
  if (!src || !baseline?.response) return;
  const points = filterPoints(src.points);
  if (!points.length) return;
  if (probeBlocked(ep, 'widening', ctx.options)) {
    ctx.holdBack(HELD_BACK);
    return;
  }
  const proof = await prove(ctx, src, baseline, lang, points);
  if (proof && proof !== 'budget') yield finding(ep, lang, proof, baseline);
}

const REMEDIATION_COMMON = 'validate values against what they must be (a login, an e-mail) before they reach the query; never return the query engine\'s errors to clients.';

export const ldapInjection = defineCheck({
  id: 'api8-ldap-injection',
  title: 'LDAP injection',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-90',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 24,
  description:
    `In up to ${FILTER_POINTS} string values of key 1's request (names like user, uid, cn, login, filter, search first; query, path and body; the pairs only in values so named): ` +
    '(1) error-based: a value that breaks a search filter (value)( or value( makes the answer carry an LDAP error (Bad search filter, ' +
    'InvalidSearchFilterException, LDAPException, ldap_search, FILTER_ERROR...) absent from the baseline, twice, while the value with letters ' +
    'appended does not; (2) boolean: value)(objectClass=* answers like the value and value)(objectClass=<random> does not, then ' +
    'value)(!(objectClass=<random>) vs value)(!(objectClass=*); (3) widened filter: *)(objectClass=* matches more than <random>)(objectClass=*, ' +
    'then *)(!(objectClass=<random>) vs <random>)(!(objectClass=<random>). A pair holds when the true input gets more; two pairs make a finding. Never on a 5xx.',
  coverage:
    'The pairs fit a value inside an AND filter such as (&(objectClass=person)(uid=value)), the usual shape; other shapes are found by their ' +
    'error only. A bare * is not sent as proof: many search APIs take it as a wildcard on purpose. Operations that change data get none of ' +
    'these inputs (a widened filter could reach every entry).',
  remediation: `Escape every value put into a search filter (RFC 4515: \\2a, \\28, \\29, \\5c, \\00 — ldap.filter.escape_filter_chars, Encoder.LdapFilterEncode), or build filters with the library's filter objects; ${REMEDIATION_COMMON}`,
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/90.html', 'https://cheatsheetseries.owasp.org/cheatsheets/LDAP_Injection_Prevention_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  run: (ctx) => run(ctx, LDAP),
});

export const xpathInjection = defineCheck({
  id: 'api8-xpath-injection',
  title: 'XPath injection',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-643',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 24,
  description:
    `In up to ${FILTER_POINTS} string values of key 1's request (names like user, login, name, search first; query, path and body; the pairs only in values so named): (1) ` +
    'error-based: a quote (single, then double) makes the answer carry an XPath error (XPathException, javax.xml.xpath, lxml XPathEvalError, ' +
    'libxml2 xmlXPathEval, DOMXPath, System.Xml.XPath...) absent from the baseline, twice, while the value with letters appended does not; ' +
    "(2) boolean: value' and count(/*)=1 and '1'='1 answers like the value and count(/*)=2 does not, then string-length('ab')=2 vs 3; (3) " +
    "widened: <random>' or count(/*)=1 or 'a'='b matches more than count(/*)=2, then the string-length pair. count() and string-length() " +
    'are XPath\'s own: SQL and NoSQL never answer these pairs. Never on a 5xx.',
  coverage:
    'Pairs in single-quoted predicates only (a double-quoted one, or a number pasted unquoted, is found by its error only). Operations that change data get ' +
    'none of these inputs.',
  remediation: `Bind values as XPath variables (XPathVariableResolver, lxml's xpath(..., name=value), xpath.js variables) or use precompiled expressions; ${REMEDIATION_COMMON}`,
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/643.html', 'https://owasp.org/www-community/attacks/XPATH_Injection'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  run: (ctx) => run(ctx, XPATH),
});
