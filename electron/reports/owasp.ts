// The OWASP API Security Top 10 (2023) as the reports explain it: what each category means in
// plain language, what Portcullis tests for it, and how honest its coverage can be. Also works out,
// per category, what a scan tested, what it skipped and why.

import { FLAG_OWASP, type Flag } from '../../shared/constants';
import { categoryId, type CategoryCoverage, type CoverageStatus, type ReportCheck, type ReportEndpoint, type ReportFinding } from './model';

type CategoryFlag = Exclude<Flag, 'SKIP'>;

export interface OwaspCategory {
  id: string;
  flag: CategoryFlag;
  title: string;
  /** What goes wrong, for a reader who is not a security engineer. */
  risk: string;
  /** What Portcullis sends to test it. */
  tests: string;
  /** The same in a few words, for the executive table. */
  short: string;
  /** Runs against every non-skipped endpoint, whatever its flags. */
  always: boolean;
  /** No tool automates this category fully; the report says coverage is partial. */
  partial: string | null;
}

export const OWASP_CATEGORIES: OwaspCategory[] = [
  {
    id: 'API1:2023',
    flag: 'BOLA',
    title: FLAG_OWASP.BOLA.title,
    risk: 'One user can read or change another user’s data by changing an id in a request.',
    tests: 'Replays one user’s requests for objects with the second user’s key, creates objects as one user and reads, updates and deletes them as the other, and swaps ids between users.',
    short: 'Cross-user access to objects: token swap, id swap, create-then-steal',
    always: false,
    partial: null,
  },
  {
    id: 'API2:2023',
    flag: 'BKEN_AUTH',
    title: FLAG_OWASP.BKEN_AUTH.title,
    risk: 'Someone can use the API without valid credentials, or guess and forge them.',
    tests: 'Calls secured endpoints without or with broken credentials, tampers with JWTs (alg none, stripped signature, expired, changed subject), and checks login and reset routes for brute-force throttling.',
    short: 'Missing and forged credentials, JWT tampering, login throttling',
    always: false,
    partial: null,
  },
  {
    id: 'API3:2023',
    flag: 'BOPLA',
    title: FLAG_OWASP.BOPLA.title,
    risk: 'Users can see fields they should not see, or set fields they should not set (for example making themselves administrators).',
    tests: 'Adds read-only and privilege-like properties to writes and reads them back, and looks for undeclared or sensitive properties in responses.',
    short: 'Mass assignment and excessive data in responses',
    always: false,
    partial: null,
  },
  {
    id: 'API4:2023',
    flag: 'URC',
    title: FLAG_OWASP.URC.title,
    risk: 'Anyone can make the API do unbounded work (huge pages, oversized input, unlimited request rates), slowing it down or running up costs.',
    tests: 'Asks for 10x and 100x page sizes, sends bounded bursts to look for rate limits, and sends input past the declared size limits.',
    short: 'Page sizes, rate limits and oversized input',
    always: false,
    partial: null,
  },
  {
    id: 'API5:2023',
    flag: 'BFLA',
    title: FLAG_OWASP.BFLA.title,
    risk: 'An ordinary user can call administrative functions.',
    tests: 'Calls administrative operations with the lower-privileged key, tries undeclared methods on existing routes, and probes admin variants of known paths.',
    short: 'Admin operations with the lower-privileged key, method swaps',
    always: false,
    partial: null,
  },
  {
    id: 'API6:2023',
    flag: 'UABF',
    title: FLAG_OWASP.UABF.title,
    risk: 'Automated clients can abuse a business flow (sign-up, purchase, voting, comments) at a scale the business did not intend.',
    tests: 'Sends a bounded burst of valid requests to flows tagged as business flows and reports when none is throttled or challenged.',
    short: 'Throttling of business flows (bounded bursts)',
    always: false,
    partial:
      'Partial in every tool: only the absence of throttling is measured automatically; whether a flow can be abused depends on business rules that need a manual review.',
  },
  {
    id: 'API7:2023',
    flag: 'SSRF',
    title: FLAG_OWASP.SSRF.title,
    risk: 'The API can be made to fetch URLs chosen by an attacker, reaching internal systems.',
    tests: 'Puts the URL of the scanner’s own listener (with a unique token) into URL-like parameters and reports when the API fetches it; also tries internal addresses and looks for their content.',
    short: 'URL parameters fetched by the API (callback listener)',
    always: false,
    partial: null,
  },
  {
    id: 'API8:2023',
    flag: 'SEC_MISC',
    title: FLAG_OWASP.SEC_MISC.title,
    risk: 'Unsafe defaults or missing hardening (permissive CORS, missing security headers, verbose errors, injection) expose the API.',
    tests: 'Checks CORS, security headers, verbose error pages, SQL/NoSQL/command injection and path traversal, and transport settings.',
    short: 'CORS, security headers, verbose errors, injection, transport',
    always: true,
    partial: null,
  },
  {
    id: 'API9:2023',
    flag: 'IIM',
    title: FLAG_OWASP.IIM.title,
    risk: 'Old API versions, documentation or debug endpoints stay reachable and unprotected.',
    tests: 'Looks for older versions of documented routes, exposed documentation and debug surfaces, and undocumented methods and status codes.',
    short: 'Old versions, exposed docs and debug endpoints',
    always: true,
    partial: null,
  },
  {
    id: 'API10:2023',
    flag: 'UCAPI',
    title: FLAG_OWASP.UCAPI.title,
    risk: 'The API trusts data or redirects from third-party services without checking them.',
    tests: 'Tests open redirects, whether the API follows redirects from URLs it fetches, and whether callback endpoints accept unsigned payloads.',
    short: 'Open redirects, followed redirects, unsigned callbacks',
    always: false,
    partial:
      'Partial in every tool: how the API treats data from the third parties it really uses cannot be observed from outside; review those integrations manually.',
  },
];

const BY_ID = new Map(OWASP_CATEGORIES.map((c) => [c.id, c]));
const BY_FLAG = new Map(OWASP_CATEGORIES.map((c) => [c.flag, c]));

export function owaspCategory(id: string | null | undefined): OwaspCategory | undefined {
  const key = categoryId(id);
  return key ? BY_ID.get(key) : undefined;
}

/** "API1:2023 Broken Object Level Authorization", or the raw value for anything else. */
export function categoryLabel(id: string): string {
  const c = owaspCategory(id);
  return c ? `${c.id} ${c.title}` : id === 'Other' ? 'Other findings' : id;
}

/** Words in check ids that name a category, e.g. "bola-token-swap", "sec_misc.cors". */
const CHECK_ID_WORDS: [RegExp, CategoryFlag][] = [
  [/(^|[^a-z])bola([^a-z]|$)/i, 'BOLA'],
  [/(^|[^a-z])bken[_-]?auth([^a-z]|$)/i, 'BKEN_AUTH'],
  [/(^|[^a-z])bopla([^a-z]|$)/i, 'BOPLA'],
  [/(^|[^a-z])urc([^a-z]|$)/i, 'URC'],
  [/(^|[^a-z])bfla([^a-z]|$)/i, 'BFLA'],
  [/(^|[^a-z])uabf([^a-z]|$)/i, 'UABF'],
  [/(^|[^a-z])ssrf([^a-z]|$)/i, 'SSRF'],
  [/(^|[^a-z])sec[_-]?misc([^a-z]|$)/i, 'SEC_MISC'],
  [/(^|[^a-z])iim([^a-z]|$)/i, 'IIM'],
  [/(^|[^a-z])ucapi([^a-z]|$)/i, 'UCAPI'],
  // Generic words last: a flag name in the id wins over them.
  [/(^|[^a-z])(broken[_-]?auth|auth|jwt)([^a-z]|$)/i, 'BKEN_AUTH'],
  [/(^|[^a-z])misconfig([^a-z]|$)/i, 'SEC_MISC'],
];

/** The category of a check: an explicit OWASP id wins, then "API3" in the id, then a flag name in it. */
export function checkCategory(checkId: string, owasp?: string | null): string {
  const explicit = categoryId(owasp) ?? categoryId(checkId);
  if (explicit) return explicit;
  for (const [re, flag] of CHECK_ID_WORDS) if (re.test(checkId)) return BY_FLAG.get(flag)!.id;
  return 'Other';
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Per category: how many endpoints it applied to (flags), the findings, the checks skipped and why,
 * and a status — tested, partial (skipped checks, or a category no tool covers fully), skipped (every
 * known check skipped), not tested (no endpoint applied).
 */
export function computeCoverage(endpoints: ReportEndpoint[], findings: ReportFinding[], checks: ReportCheck[]): CategoryCoverage[] {
  const active = endpoints.filter((e) => !e.flags.includes('SKIP'));
  const skippedEndpoints = endpoints.length - active.length;
  return OWASP_CATEGORIES.map((cat) => {
    const applies = cat.always ? active : active.filter((e) => e.flags.includes(cat.flag));
    const found = findings.filter((f) => categoryId(f.owasp) === cat.id).length;
    const own = checks.filter((c) => c.category === cat.id);
    const skipped = own.filter((c) => c.status === 'skipped').map((c) => ({ check_id: c.check_id, title: c.title, reason: c.reason ?? 'No reason recorded.' }));
    const ran = own.filter((c) => c.status === 'run').length;
    let status: CoverageStatus;
    const notes: string[] = [];
    if (applies.length === 0) {
      status = 'not_tested';
      if (endpoints.length === 0) notes.push('The API has no endpoints.');
      else if (active.length === 0) notes.push('Every endpoint was marked SKIP.');
      else notes.push(`No endpoint carries the ${cat.flag} flag, so no ${cat.id.split(':')[0]} check applied.`);
    } else if (skipped.length > 0 && ran === 0 && own.length === skipped.length && found === 0) {
      status = 'skipped';
      notes.push(`All ${plural(skipped.length, 'check')} of this category were skipped.`);
    } else if (skipped.length > 0 || cat.partial) {
      status = 'partial';
      if (skipped.length > 0) notes.push(`${plural(skipped.length, 'check')} skipped.`);
      if (cat.partial) notes.push(cat.partial);
    } else {
      status = 'tested';
      notes.push(found > 0 ? `${plural(found, 'finding')}.` : 'No issue found.');
    }
    if (applies.length > 0 && skippedEndpoints > 0) notes.push(`${plural(skippedEndpoints, 'endpoint')} marked SKIP got no requests.`);
    const scope = cat.always ? 'every endpoint not marked SKIP' : `endpoints flagged ${cat.flag}`;
    return {
      id: cat.id,
      title: cat.title,
      flag: cat.flag,
      status,
      endpoints_tested: applies.length,
      findings: found,
      tested: applies.length ? `${cat.tests} Applied to ${plural(applies.length, 'endpoint')} (${scope}).` : 'Nothing: no endpoint applied.',
      tested_short: applies.length ? `${cat.short}, on ${plural(applies.length, 'endpoint')}` : 'Nothing: no endpoint applied',
      skipped,
      note: notes.join(' '),
    };
  });
}

export const COVERAGE_LABELS: Record<CoverageStatus, string> = {
  tested: 'Tested',
  partial: 'Partial',
  skipped: 'Skipped',
  not_tested: 'Not tested',
};
