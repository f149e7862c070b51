// API8:2023 Security Misconfiguration (injection): operating-system commands run from input.


import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { byPlace } from '../common/injection';
import {
    describePoint,
    itemCount,
    ms,
    otherAnswer,
    pointSource,
    urlKind,
    type InjectionPoint,
} from '../common/input-points';
import { delayExchanges, delayNotes, TIME_CONFIRM_BUDGET, timeBased } from '../common/time-proof';
import { OWASP_API8 } from '../common/references';
import type { FindingDraft } from '../types';

// ---------------------------------------------------------------- NoSQL operators

/** The operator answer got more than the baseline: a refusal became a success, or a success returned more items or a different body. */
export function gained(ex: Exchange, baseline: Exchange): boolean {
  if (!ex.ok) return false;
  if (!baseline.ok) return baseline.status >= 400 && baseline.status < 500;
  if (!otherAnswer(ex, baseline)) return false;
  // Two lists: more entries, not more bytes (other entries of the same number are not a wider match).
  const [more, fewer] = [itemCount(ex), itemCount(baseline)];
  if (more !== null && fewer !== null) return more > fewer;
  return ex.body.length > baseline.body.length;
}

export function describeGain(ex: Exchange, baseline: Exchange): string {
  return baseline.ok ? `larger (${ex.body.length} bytes instead of ${baseline.body.length})` : `a success (HTTP ${ex.status} instead of ${baseline.status})`;
}

// ---------------------------------------------------------------- OS command injection

/** Separators with a sleep: unquoted and double-quoted contexts ($() and backticks expand there), single quotes, a line break, Windows. */
export const CMD_TEMPLATES = [
  (v: string, d: number) => `${v};sleep ${d};`,
  (v: string, d: number) => `${v}|sleep ${d}`,
  (v: string, d: number) => `${v}$(sleep ${d})`,
  (v: string, d: number) => `${v}\`sleep ${d}\``,
  (v: string, d: number) => `${v}';sleep ${d};'`,
  (v: string, d: number) => `${v}\nsleep ${d}\n`,
  (v: string, d: number) => `${v}&ping -n ${d + 1} 127.0.0.1&`,
];
export const CMD_POINTS = 3;
const CMD_NAME = /(file|path|dir|folder|cmd|command|exec|run|host|ip|addr|domain|url|name|target|arg|param|option|filter|query|image|src|dest)/i;

export const commandInjection = defineCheck({
  id: 'api8-command-injection',
  title: 'OS command injection',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-78',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 1 + CMD_POINTS * CMD_TEMPLATES.length + TIME_CONFIRM_BUDGET,
  description:
    `In up to ${CMD_POINTS} string values of key 1's request (names like file, path, host, cmd first), appends shell separators with a sleep ` +
    '(;, |, $(), backticks, a single-quote break-out, a newline, and ping on Windows). Finding when the answer is delayed by the requested time ' +
    'against a measured baseline, again at a second, different delay, and not when asking for no delay. Screened alongside other requests; a delayed answer is confirmed with no other timing ' +
    'measurement of the scan in flight, and once more when that confirmation fails (two of the three verdicts decide).',
  remediation:
    'Do not build shell commands from input: call programs with an argument list (no shell), or use a library instead of a command; ' +
    'validate values against an allow-list (known file names, hosts).',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/78.html', 'https://cheatsheetseries.owasp.org/cheatsheets/OS_Command_Injection_Defense_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline?.response) return;
    const points = commandPoints(src.points);
    if (!points.length) return;
    const proven = await timeBased(ctx, src, baseline, points, commandTemplates);
    if (proven) yield commandFinding(ctx.endpoint, proven);
  },
});

/** The string values most likely to reach a shell (names like file, path, host, cmd first), at most CMD_POINTS. */
export function commandPoints(points: readonly InjectionPoint[]): InjectionPoint[] {
  return points
    .filter((p) => p.type === 'string' && typeof p.value === 'string' && !p.schema?.enum && !['uuid', 'date', 'date-time', 'email'].includes(String(p.schema?.format ?? '')))
    .sort((a, b) => (CMD_NAME.test(b.key) ? 1 : 0) - (CMD_NAME.test(a.key) ? 1 : 0) || byPlace(a, b))
    .slice(0, CMD_POINTS);
}

/** The sleep templates for a point: a line break in a URL value ends up in headers (a redirect's Location), not worth breaking a server for. */
export function commandTemplates(p: InjectionPoint): typeof CMD_TEMPLATES {
  return urlKind(p) ? CMD_TEMPLATES.filter((x) => !x('', 1).includes('\n')) : CMD_TEMPLATES;
}

/** The finding of a proven command delay. */
export function commandFinding(ep: Endpoint, proven: NonNullable<Awaited<ReturnType<typeof timeBased>>>): FindingDraft {
  const { point: p, proof, baseMs } = proven;
  return {
    parameter: p.name,
    description:
      `${describeEndpoint(ep)} runs shell commands injected through ${describePoint(p)}: appending ${JSON.stringify(proven.template('', proof.delays[0]))} ` +
      `delayed the answer by ${ms(proof.first.durationMs - baseMs)}, the same with ${proof.delays[1]} s by ${ms(proof.second.durationMs - baseMs)}, ` +
      `and with 0 s it answered at baseline speed (${ms(proof.control.durationMs)}). An attacker can run any command with the ` +
      "server's privileges.",
    notes: [`Payload: ${describePoint(p)} = ${JSON.stringify(proven.payload(proof.delays[0]))}.`, ...delayNotes(proof, baseMs)],
    exchanges: delayExchanges(proven.ref, proof),
    reproduce: proof.second,
  };
}
