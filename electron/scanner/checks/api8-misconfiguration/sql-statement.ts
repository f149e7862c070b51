// API8:2023 Security Misconfiguration (injection): a parameter that carries a whole SQL statement (a
// report screen sending "SELECT ... FROM ..."). No quote needs breaking out of: the statement is
// replaced by one that computes a product of two random numbers, which only a database that ran it can
// answer (the request carries the factors, never the product). Reads only: SELECT of constants.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { AS_KEY1, bodyText, describePoint, pointSource, valueText, type InjectionPoint, type PointSource } from '../common/input-points';
import { OWASP_API8 } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';

/** Names that say the value is a statement; query and q count only when the value is one. */
const STATEMENT_NAME = /(^|[-_.])(sql|statement|stmt|raw_?query|native_?query)$|^(sql|statement|stmt)/i;
const QUERY_NAME = /^(query|q|expression|select|report_?query|filter_?query)$/i;
/** A value that is itself a statement. */
export const LOOKS_LIKE_SQL = /^\s*\(?\s*(select|with)\s[\s\S]*\bfrom\b/i;
export const STATEMENT_POINTS = 2;

/** Statements that compute a*b: standard SQL, then Oracle's FROM DUAL. */
const FORMS = [(a: number, b: number) => `SELECT ${a}*${b}`, (a: number, b: number) => `SELECT ${a}*${b} FROM DUAL`];

export function statementPoints(points: readonly InjectionPoint[]): InjectionPoint[] {
  return points
    .filter((p) => p.type === 'string' && typeof p.value === 'string' && p.where !== 'header')
    .filter((p) => LOOKS_LIKE_SQL.test(valueText(p)) || STATEMENT_NAME.test(p.key) || (QUERY_NAME.test(p.key) && /\bselect\b/i.test(valueText(p))))
    .sort((a, b) => Number(LOOKS_LIKE_SQL.test(valueText(b))) - Number(LOOKS_LIKE_SQL.test(valueText(a))))
    .slice(0, STATEMENT_POINTS);
}

interface Computed {
  statement: string;
  product: string;
  ex: Exchange;
}

/** The first form whose answer carries the product (as a number of its own), or null. */
async function computes(ctx: CheckContext, src: PointSource, p0: InjectionPoint, baseText: string, a: number, b: number): Promise<Computed | null | 'budget'> {
  const product = String(a * b);
  const shown = new RegExp(`(?<![\\d.])${product}(?![\\d.])`);
  if (shown.test(baseText)) return null;
  for (const form of FORMS) {
    if (ctx.budgetLeft() <= 0) return 'budget';
    const p = await src.get(p0.name);
    if (!p) return null;
    const statement = form(a, b);
    const ex = await ctx.sendPrepared(p.with(statement), AS_KEY1);
    if (ex.ok && shown.test(bodyText(ex))) return { statement, product, ex };
  }
  return null;
}

const factor = (ctx: CheckContext) => 101 + ctx.random.int(0, 897);

function finding(ep: Endpoint, p: InjectionPoint, first: Computed, second: Computed, baseline: Exchange): FindingDraft {
  return {
    name: 'SQL injection (the parameter is a whole statement)',
    parameter: p.name,
    description:
      `${describeEndpoint(ep)} runs the SQL statement it is sent in ${describePoint(p)}: ${JSON.stringify(first.statement)} was answered with ` +
      `${first.product} (HTTP ${first.ex.status}) and ${JSON.stringify(second.statement)} with ${second.product}: products that only a database ` +
      'that ran the statement could compute (the request carries the factors, not the result). Any client can run its own statements: read ' +
      'every table the database account can reach (users, password hashes, tokens), and change data if the account may.',
    notes: [
      `${describePoint(p)} = ${JSON.stringify(first.statement)} -> ${first.product} in the answer; ${JSON.stringify(second.statement)} -> ${second.product}.`,
      'Only SELECT statements of constants were sent: nothing was read from or written to a table.',
    ],
    exchanges: [
      { label: 'Baseline', exchange: baseline },
      { label: `Attack: ${first.statement}`, exchange: first.ex },
      { label: `Confirmation: ${second.statement}`, exchange: second.ex },
    ],
    reproduce: first.ex,
  };
}

export const sqlStatement = defineCheck({
  id: 'api8-sql-statement',
  title: 'SQL statement accepted from the client',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-89',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: STATEMENT_POINTS * 2 * FORMS.length,
  description:
    `In up to ${STATEMENT_POINTS} string values of key 1's request that carry a statement (a value starting SELECT ... FROM or WITH, or a ` +
    'name like sql, statement, stmt, raw_query; query and q when their value has SELECT), sends SELECT a*b for two random three-digit ' +
    'numbers (then SELECT a*b FROM DUAL for Oracle). Finding when a successful answer carries the product, absent from the baseline, and ' +
    'a second statement with other numbers is answered with its own product. Reads only: SELECT of constants, never a statement that writes.',
  coverage:
    'The answer must show the rows the statement returns (or a value of them); a statement run blind is not seen. A value pasted into a ' +
    'statement (a quote to break out of) is the sql-injection check\'s.',
  remediation:
    'Never run statements that clients send: expose each report or query as an operation of its own with typed parameters, bound into ' +
    'statements the server owns; if ad-hoc queries are a feature, run them as a read-only database role limited to the tables meant for it.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/89.html', 'https://cheatsheetseries.owasp.org/cheatsheets/SQL_Injection_Prevention_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline?.response) return;
    const baseText = bodyText(baseline);
    for (const p of statementPoints(src.points)) {
      const first = await computes(ctx, src, p, baseText, factor(ctx), factor(ctx));
      if (first === 'budget') return;
      if (!first) continue;
      const second = await computes(ctx, src, p, baseText, factor(ctx), factor(ctx));
      if (second === 'budget') return;
      if (!second || second.product === first.product) continue;
      yield finding(ctx.endpoint, p, first, second, baseline);
      return;
    }
  },
});
