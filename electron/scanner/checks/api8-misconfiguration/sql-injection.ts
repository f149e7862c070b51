// API8:2023 Security Misconfiguration, injection: SQL (error-based, time-based, boolean-based).
// Every technique compares with key 1's normal answer and confirms with a second, different input
// before it reports.

import type { Exchange } from '../../http/exchange';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { byPlace, numeric, reference, scalar } from '../common/injection';
import {
    AS_KEY1,
    describePoint,
    ms,
    otherAnswer,
    pointSource,
    sameAnswer,
    valueText,
    type InjectionPoint,
} from '../common/input-points';
import { delayExchanges, delayNotes, timeBased } from '../common/time-proof';
import type { FindingDraft } from '../types';
import { describeDifference } from './nosql-injection';
import { sqlSignature } from './verbose-errors';
import { OWASP_API8 } from '../common/references';

// ---------------------------------------------------------------- SQL injection

/**
 * Payloads asking the database to sleep D seconds, by context: uncorrelated subqueries, which run
 * once whether or not any row matches (MySQL/MariaDB — where || is OR — PostgreSQL, SQLite with a
 * sleep function), and SQL Server's stacked WAITFOR. No per-row sleeps: on a large table they would
 * hold the database for rows x seconds.
 */
const SQL_TIME_STRING = [
  (v: string, d: number) => `${v}'||(SELECT SLEEP(${d}))||'`,
  (v: string, d: number) => `${v}'||(SELECT '' FROM PG_SLEEP(${d}))||'`,
  (v: string, d: number) => `${v}';WAITFOR DELAY '0:0:${d}'-- -`,
];
const SQL_TIME_NUMBER = [
  (v: string, d: number) => `${v}+(SELECT SLEEP(${d}))`,
  (v: string, d: number) => `${v}+(SELECT 0 FROM PG_SLEEP(${d}))`,
  (v: string, d: number) => `${v};WAITFOR DELAY '0:0:${d}'--`,
];
const SQL_POINTS = 4;

export const sqlInjection = defineCheck({
  id: 'api8-sql-injection',
  title: 'SQL injection',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-89',
  severity: 'high',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 40,
  description:
    `In up to ${SQL_POINTS} query, path and body values of key 1's request: (1) error-based: a quote that makes the answer carry a database ` +
    'error (MySQL, PostgreSQL, SQLite, SQL Server, Oracle, ORMs) absent from the baseline, and a doubled quote (a valid literal) that does not; ' +
    '(2) time-based: sleep payloads for MySQL, PostgreSQL, SQLite and SQL Server, measured against the baseline, confirmed at a second, ' +
    'different delay and with a zero delay answering at baseline speed; (3) boolean-based: an always-true condition that answers like the ' +
    'baseline and an always-false one that does not, twice with different conditions. Sleep payloads are screened alongside other requests; a delayed answer is confirmed with no other ' +
    'timing measurement of the scan in flight.',
  remediation:
    'Use parameterised queries (prepared statements, or the ORM\'s query builder) for every value that reaches SQL; validate types, enums and ' +
    'formats first; run the database account with least privilege; never return database errors to clients.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/89.html', 'https://cheatsheetseries.owasp.org/cheatsheets/SQL_Injection_Prevention_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline?.response) return;
    const points = src.points.filter(scalar).sort(byPlace).slice(0, SQL_POINTS);
    if (!points.length) return;
    const base = sqlSignature(baseline);
    const send = async (name: string, value: string): Promise<{ point: InjectionPoint; ex: Exchange } | null> => {
      if (ctx.budgetLeft() <= 0) return null;
      const p = await src.get(name);
      return p ? { point: p, ex: await ctx.sendPrepared(p.with(value), AS_KEY1) } : null;
    };

    // 1. Error-based.
    if (!base) {
      for (const p of points) {
        for (const q of ["'", '"']) {
          const v = valueText(p);
          const attack = await send(p.name, `${v}${q}`);
          if (!attack) return;
          const sig = sqlSignature(attack.ex);
          if (!sig) continue;
          const control = await send(p.name, `${v}${q}${q}`);
          if (!control || sqlSignature(control.ex)) break;
          yield {
            name: 'SQL injection (error-based)',
            parameter: p.name,
            description:
              `${describeEndpoint(ep)} puts ${describePoint(p)} into SQL unescaped: a ${q === "'" ? 'single' : 'double'} quote after the value makes ` +
              `the answer (HTTP ${attack.ex.status}) carry a ${sig.what} ("${sig.excerpt}"), while a doubled quote — a valid string literal — does ` +
              `not (HTTP ${control.ex.status}). An attacker can change the query: read or alter any data the database account can reach.`,
            notes: [`${describePoint(p)} = ${JSON.stringify(`${v}${q}`)} -> ${sig.what}; ${JSON.stringify(`${v}${q}${q}`)} -> no database error.`],
            exchanges: [
              { label: 'Baseline', exchange: baseline },
              { label: `Attack: ${q} after ${p.name}`, exchange: attack.ex },
              { label: `Control: ${q}${q} (a valid literal)`, exchange: control.ex },
            ],
            reproduce: attack.ex,
          };
          return;
        }
      }
    }

    // 2. Time-based: screened alongside the scan's other requests, confirmed alone.
    const proven = await timeBased(ctx, src, baseline, points, (p) => (numeric(p) ? [...SQL_TIME_NUMBER, SQL_TIME_STRING[0]!] : SQL_TIME_STRING));
    const timed: FindingDraft | null = proven && {
      name: 'SQL injection (time-based)',
      parameter: proven.point.name,
      description:
        `${describeEndpoint(ep)} runs SQL injected through ${describePoint(proven.point)}: asking the database to sleep ${proven.proof.delays[0]} s delayed the ` +
        `answer by ${ms(proven.proof.first.durationMs - proven.baseMs)}, asking for ${proven.proof.delays[1]} s by ${ms(proven.proof.second.durationMs - proven.baseMs)}, and ` +
        `asking for 0 s answered at baseline speed (${ms(proven.proof.control.durationMs)}). The injected SQL runs: an attacker can read or alter ` +
        'any data the database account can reach, one bit at a time if need be.',
      notes: [`Payload: ${describePoint(proven.point)} = ${JSON.stringify(proven.payload(proven.proof.delays[0]))}.`, ...delayNotes(proven.proof, proven.baseMs)],
      exchanges: delayExchanges(proven.ref, proven.proof),
      reproduce: proven.proof.second,
    };
    if (timed) {
      yield timed;
      return;
    }

    // 3. Boolean-based: true conditions answer like the baseline, false ones do not (twice).
    if (!baseline.ok) return;
    const fresh = await reference(ctx, src);
    if (!fresh?.ok || !sameAnswer(fresh, baseline)) return;
    for (const p of points) {
      const v = valueText(p);
      const pairs: [string, string][] = numeric(p)
        ? [
            [`${v} AND 7=7`, `${v} AND 7=8`],
            [`${v} AND 3>2`, `${v} AND 2>3`],
          ]
        : [
            [`${v}' AND '7'='7`, `${v}' AND '7'='8`],
            [`${v}' AND 'b'<'c`, `${v}' AND 'c'<'b`],
          ];
      const seen: Exchange[] = [];
      let proven = true;
      for (const [t, f] of pairs) {
        const yes = await send(p.name, t);
        if (!yes || !sameAnswer(yes.ex, fresh)) {
          proven = false;
          break;
        }
        const no = await send(p.name, f);
        if (!no || !otherAnswer(no.ex, fresh) || !no.ex.response || no.ex.status >= 500) {
          proven = false;
          break;
        }
        seen.push(yes.ex, no.ex);
      }
      if (!proven || seen.length < 4) continue;
      yield {
        name: 'SQL injection (boolean-based)',
        confidence: 'medium',
        parameter: p.name,
        description:
          `${describeEndpoint(ep)} evaluates SQL conditions injected through ${describePoint(p)}: two different always-true conditions answered ` +
          `like the unchanged request, and two always-false ones answered differently (HTTP ${seen[1]!.status}, ${describeDifference(seen[1]!, fresh)}). ` +
          'The value is concatenated into the query: an attacker can read data one condition at a time.',
        notes: [`True: ${JSON.stringify(pairs[0]![0])}, ${JSON.stringify(pairs[1]![0])}. False: ${JSON.stringify(pairs[0]![1])}, ${JSON.stringify(pairs[1]![1])}.`],
        exchanges: [
          { label: 'Baseline (re-sent)', exchange: fresh },
          { label: 'Attack: always-true condition', exchange: seen[0]! },
          { label: 'Attack: always-false condition', exchange: seen[1]! },
          { label: 'Confirmation: another always-false condition', exchange: seen[3]! },
        ],
        reproduce: seen[1],
      };
      return;
    }
  },
});
// ---------------------------------------------------------------- NoSQL operators
// ---------------------------------------------------------------- OS command injection
// ---------------------------------------------------------------- path traversal
