// API8:2023 Security Misconfiguration, injection: a search or filter value that closes its string (and
// the parentheses around it) and comments out the rest of the WHERE clause, so that rows the query
// hides on purpose (soft-deleted, unpublished, other tenants') come back. Proven by rows: more than
// any plain search returns, none with an always-false condition added, the same with an always-true one.

import type { Exchange } from '../../http/exchange';
import { probeBlocked } from '../../probe-safety';
import { itemCount } from '../common/answers';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { AS_KEY1, describePoint, pointSource, type InjectionPoint } from '../common/input-points';
import { OWASP_API8 } from '../common/references';
import type { FindingDraft } from '../types';

const POINTS = 2;
/** A string closed, then none, one or two parentheses: LIKE '%x%' inside ((... OR ...) AND hidden IS NULL). */
const CLOSERS = ["'", "')", "'))"];
const PAGING = /^(page|page_?size|per_?page|limit|offset|skip|size|count|top|sort|order|order_?by|sort_?by|fields|include|expand|format|lang|locale|callback)$/i;
/** Fields that mark a row as removed while it stays in the table. */
const SOFT_DELETE = /^(deleted_?at|deleted_?on|deleted_?date|is_?deleted|deleted|archived_?at|removed_?at|trashed_?at)$/i;

function rows(ex: Exchange): unknown[] | null {
  const v = ex.json();
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') {
    for (const inner of Object.values(v as Record<string, unknown>)) if (Array.isArray(inner)) return inner;
  }
  return null;
}

/** The soft-delete field set on a row the plain search did not return, as "deletedAt is not null". */
function softDeleted(extra: unknown[]): string | null {
  for (const row of extra) {
    if (!row || typeof row !== 'object') continue;
    for (const [k, v] of Object.entries(row as Record<string, unknown>)) {
      if (!SOFT_DELETE.test(k) || v === null || v === undefined || v === false || v === 0 || v === '') continue;
      return v === true || v === 1 ? `${k} is true` : `${k} is not null`;
    }
  }
  return null;
}

const count = (ex: Exchange | null) => (ex?.response && ex.status >= 200 && ex.status < 300 ? itemCount(ex) : null);

export const sqlFilterBypass = defineCheck({
  id: 'api8-sql-filter-bypass',
  title: 'SQL injection: the rest of the filter commented out',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-89',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: POINTS * (2 + CLOSERS.length + 2),
  description:
    `In up to ${POINTS} string query parameters of a read that answers with a list (search terms and filters, not paging): sends the ` +
    'parameter empty, then a value that closes the string and up to two parentheses and comments out ' +
    "the rest of the statement (', ') and ')) followed by \"-- \"). Finding when that answer lists more rows than both the unchanged and " +
    'the empty search, the same closer with " AND 1=2" added lists fewer (a condition the database evaluated), and with " AND 1=1" the same ' +
    'number: the value is part of the SQL text, and the conditions after it (a soft-delete or visibility filter) can be dropped. Rows ' +
    'revealed with a soft-delete field set (deletedAt, is_deleted...) are named in the finding.',
  coverage:
    'Needs the answer to be a JSON list whose length changes with the matching rows, and a comment syntax that ends the statement ("--", ' +
    'as in SQLite, PostgreSQL, SQL Server, Oracle and MySQL with the trailing space). Searches whose plain form already returns every row ' +
    'show nothing more. Reads only: operations that change data never get these values.',
  remediation:
    'Build queries with bound parameters (prepared statements or the ORM\'s query builder), including LIKE patterns (bind "%" + term + "%" ' +
    'as one value); keep visibility and soft-delete filters in the ORM\'s default scope rather than in concatenated SQL.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/89.html', 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/07-Input_Validation_Testing/05-Testing_for_SQL_Injection'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method === 'GET',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    const plain = count(baseline);
    if (!src || !baseline || plain === null) return;
    const points = src.points.filter((p) => p.where === 'query' && p.type === 'string' && typeof p.value === 'string' && !p.schema?.enum && !p.schema?.format && !PAGING.test(p.key)).slice(0, POINTS);
    if (!points.length) return;
    if (probeBlocked(ep, 'widening', ctx.options)) return;
    const send = async (p: InjectionPoint, value: string) => (ctx.budgetLeft() > 0 ? ctx.sendPrepared(p.with(value), AS_KEY1) : null);
    for (const p of points) {
      const empty = await send(p, '');
      const most = Math.max(plain, count(empty) ?? 0);
      for (const close of CLOSERS) {
        const open = await send(p, `${close}-- `);
        const opened = count(open);
        if (!open || opened === null || opened <= most) continue;
        const no = await send(p, `${close} AND 1=2-- `);
        const yes = await send(p, `${close} AND 1=1-- `);
        if (count(no) === null || count(no)! >= opened || count(yes) !== opened) continue;
        yield finding(p, close, { baseline, empty, open, no: no!, yes: yes!, plain, most, opened });
        return;
      }
    }

    function finding(p: InjectionPoint, close: string, r: { baseline: Exchange; empty: Exchange | null; open: Exchange; no: Exchange; yes: Exchange; plain: number; most: number; opened: number }): FindingDraft {
      const seen = new Set([...(rows(r.baseline) ?? []), ...(r.empty ? (rows(r.empty) ?? []) : [])].map((x) => JSON.stringify(x)));
      const extra = (rows(r.open) ?? []).filter((x) => !seen.has(JSON.stringify(x)));
      const deleted = softDeleted(extra);
      return {
        parameter: p.name,
        name: deleted ? `SQL injection reveals soft-deleted rows (${deleted})` : 'SQL injection: the rest of the filter commented out returns hidden rows',
        description:
          `${describeEndpoint(ep)} puts ${describePoint(p)} into the SQL text: ${JSON.stringify(`${close}-- `)} closes the value and comments out ` +
          `the rest of the statement, and the answer lists ${r.opened} rows where the unchanged request lists ${r.plain} and the empty value ` +
          `${r.empty ? (count(r.empty) ?? 'no list') : 'nothing'}. With " AND 1=2" before the comment it lists ${count(r.no)}, with " AND 1=1" ` +
          `${count(r.yes)}: the database evaluates the input.` +
          (deleted ? ` Rows that came back only this way have ${deleted}: records the API deleted are readable again.` : ' The conditions after the value, which hide these rows, no longer apply.') +
          ' The same input can read other tables of the database.',
        notes: [
          `${p.name} unchanged -> ${r.plain} rows; empty -> ${r.empty ? (count(r.empty) ?? `HTTP ${r.empty.status}`) : 'not sent'}.`,
          `${p.name} = ${JSON.stringify(`${close}-- `)} -> ${r.opened} rows; ${JSON.stringify(`${close} AND 1=2-- `)} -> ${count(r.no)}; ${JSON.stringify(`${close} AND 1=1-- `)} -> ${count(r.yes)}.`,
          ...(extra.length ? [`Rows only the commented-out query returned: ${extra.length} (first: ${JSON.stringify(extra[0]).slice(0, 300)}).`] : []),
        ],
        exchanges: [
          { label: 'Baseline', exchange: r.baseline },
          { label: `Attack: ${close}-- `, exchange: r.open },
          { label: `Control: ${close} AND 1=2-- `, exchange: r.no },
          { label: `Confirmation: ${close} AND 1=1-- `, exchange: r.yes },
        ],
        reproduce: r.open,
      };
    }
  },
});
