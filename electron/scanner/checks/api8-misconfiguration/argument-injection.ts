// API8:2023 Security Misconfiguration (injection): argument injection. A value handed to a program as
// one argument, without a shell (execFile, subprocess with a list), is safe from separators but not
// from a leading "-": the program takes it as an option. Harmless options prove it: --help turns the
// answer into the program's usage text, --version into its version line, an unknown option into its
// complaint, while the same letters not at the start do nothing of the kind.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { asAnswered, MAX_MARKER } from '../../proof';
import type { SeededRandom } from '../../random';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { AS_KEY1, bodyText, describePoint, pointSource, type InjectionPoint, type PointSource } from '../common/input-points';
import { OWASP_API8 } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';
import { commandPoints } from './command-injection';

/** A program's usage text: "Usage: head [OPTION]... [FILE]...", "usage: git [--version]", "Try 'tar --help'". */
const USAGE = /(?:^|[\s"'>])usage:\s+\S+\s+\[?-{0,2}[\w[]|\[OPTIONS?\]\.{0,3}|Try '[\w.-]+ --help'|--help\s+(?:display|print|show)s? this help/im;
/** A version line: "head (GNU coreutils) 9.1", "curl 8.5.0 (x86_64", "ImageMagick 7.1.1-21", "version 2.43.0". */
const VERSION = /\((?:GNU|BSD)\s[\w -]+\)\s\d+\.\d+|\b[a-z][\w.-]*\s+(?:version\s+)?v?\d+\.\d+(?:\.\d+)?(?:[-.\w]*)?\s+\([\w ,.-]*\)|\bversion\s+v?\d+\.\d+\.\d+/im;
/** A program's complaint about an option it does not know. */
const UNKNOWN_OPTION = /(?:unrecognized|unknown|invalid|illegal|unsupported|bad)\s+(?:command[- ]line\s+)?(?:option|argument|flag|switch)\s*(?:[-:'"`‘]|--)/i;

export const ARG_POINTS = 3;

interface Probe {
  /** What the signal is, for the finding. */
  what: string;
  attack: (r: string) => string;
  signal: RegExp;
}

const PROBES: Probe[] = [
  { what: 'the usage text', attack: () => '--help', signal: USAGE },
  { what: 'a version line', attack: () => '--version', signal: VERSION },
  { what: 'an unknown-option error', attack: (r) => `--${r}`, signal: UNKNOWN_OPTION },
];

interface Seen {
  probe: Probe;
  value: string;
  excerpt: string;
  attack: Exchange;
  control: Exchange;
}

function excerpt(text: string, re: RegExp): string | null {
  const m = re.exec(text);
  if (!m) return null;
  // The match may start with the separator before it (a line break): the line is the one after.
  const at = m.index + (m[0].length - m[0].trimStart().length);
  const start = Math.max(text.lastIndexOf('\n', at) + 1, at - 60);
  const end = text.indexOf('\n', at);
  return text.slice(start, end < 0 ? at + 100 : Math.min(end, at + 100)).trim() || m[0].trim();
}

const token = (random: SeededRandom) => `pcl${random.alnum(8).toLowerCase()}`;

/** Each probe on one point: its signal appears with the option and not with the same text after a letter (not an option). */
async function probePoint(ctx: CheckContext, src: PointSource, baseline: Exchange, p0: InjectionPoint): Promise<Seen[] | 'budget'> {
  const r = token(ctx.random);
  const seen: Seen[] = [];
  const baseText = bodyText(baseline);
  for (const probe of PROBES) {
    if (probe.signal.test(baseText)) continue;
    if (ctx.budgetLeft() < 2) return 'budget';
    const p = await src.get(p0.name);
    if (!p) return seen;
    const value = probe.attack(r);
    const attack = await ctx.sendPrepared(p.with(value), AS_KEY1);
    const found = attack.response ? excerpt(bodyText(attack), probe.signal) : null;
    if (!found) continue;
    const q = await src.get(p0.name);
    if (!q) return seen;
    const control = await ctx.sendPrepared(q.with(`x${value}`), AS_KEY1);
    if (!control.response || probe.signal.test(bodyText(control))) continue;
    seen.push({ probe, value, excerpt: found, attack, control });
    if (seen.length >= 2) return seen;
  }
  return seen;
}

function finding(ep: Endpoint, p: InjectionPoint, seen: Seen[], baseline: Exchange): FindingDraft {
  const [a, b] = seen as [Seen, Seen];
  return {
    parameter: p.name,
    description:
      `${describeEndpoint(ep)} passes ${describePoint(p)} to a program as an argument that can be an option: ${JSON.stringify(a.value)} made ` +
      `the answer (HTTP ${a.attack.status}) show ${a.probe.what} ("${a.excerpt}"), and ${JSON.stringify(b.value)} ${b.probe.what} ("${b.excerpt}"), ` +
      `while the same texts after a letter (not options) did not. An attacker can add options the program takes: depending on the program, ` +
      'write its output to a file of their choice, read other files, or run commands (e.g. --output, -o, --exec, -e).',
    notes: seen.map((s) => `${describePoint(p)} = ${JSON.stringify(s.value)} -> ${s.probe.what}; ${JSON.stringify(`x${s.value}`)} -> none.`),
    exchanges: [
      { label: 'Baseline', exchange: baseline },
      { label: `Attack: ${a.value}`, exchange: a.attack },
      { label: `Control: x${a.value}`, exchange: a.control },
      { label: `Confirmation: ${b.value}`, exchange: b.attack },
      { label: `Control: x${b.value}`, exchange: b.control },
    ],
    reproduce: a.attack,
    // The program's own answer to the option (its usage or version line), which the control after a letter lacked.
    proof: { marker: asAnswered(a.attack, a.excerpt.split('\n')[0]!.slice(0, MAX_MARKER)) ?? undefined },
  };
}

export const argumentInjection = defineCheck({
  id: 'api8-argument-injection',
  title: 'Argument injection (a value taken as a program option)',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-88',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:L/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: ARG_POINTS * PROBES.length * 2,
  description:
    `In up to ${ARG_POINTS} string values of key 1's request (names like file, path, host, cmd, arg, option first), sends harmless options ` +
    'as the whole value: --help, --version and an unknown --<random>. Each counts when the answer shows what a program answers to it (its ' +
    'usage text: "Usage: prog [OPTION]...", "Try \'prog --help\'"; a version line: "prog (GNU coreutils) 9.1"; "unrecognized option") absent ' +
    'from the baseline, and the same text after a letter (x--help: a file name, not an option) does not. Finding when two of the three count.',
  coverage:
    'Only programs that answer --help, --version or an unknown option in a way the API passes back (in the answer or its error) are seen; an ' +
    'option that changes what the program does silently (-o file) is not tried, as it could write. Values run through a shell are the ' +
    'command-injection check\'s.',
  remediation:
    'End the options before any value ("--", or the program\'s own end-of-options marker), refuse values that start with "-", and pass ' +
    'file names as ./name or absolute paths; better, use a library instead of a program.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/88.html', 'https://cheatsheetseries.owasp.org/cheatsheets/OS_Command_Injection_Defense_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline?.response) return;
    for (const p of commandPoints(src.points).slice(0, ARG_POINTS)) {
      const seen = await probePoint(ctx, src, baseline, p);
      if (seen === 'budget') return;
      if (seen.length >= 2) {
        yield finding(ctx.endpoint, p, seen, baseline);
        return;
      }
    }
  },
});
