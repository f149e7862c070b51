// docs/detection.md from the detection benchmark's runs: per mode, a row per known flaw (found with
// which findings, in how many runs, or missed and why), the false alarms, requests and time.

import type { DetectMode, DetectRun, ReportedFinding } from '../../test/helpers/detect';

/**
 * Why a flaw is missed, where the reason is known (the scorer only says "missed"). Documentation of
 * this one target's results, never an input to the scanner.
 */
const MISSED_WHY: Record<string, string> = {};

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const label = (f: ReportedFinding) => `${f.vulnerability_name} (\`${f.check_id}\`)`;

function creditedTo(runs: DetectRun[], id: string): { runsFound: number; labels: string[] } {
  const labels = new Set<string>();
  let runsFound = 0;
  for (const r of runs) {
    const row = r.summary.rows.find((x) => x.id === id);
    if (!row || row.findings.length === 0) continue;
    runsFound += 1;
    for (const i of row.findings) {
      const f = r.findings[i];
      if (f) labels.add(label(f));
    }
  }
  return { runsFound, labels: [...labels] };
}

function flawTable(runs: DetectRun[]): string[] {
  const first = runs[0]!;
  const lines = ['| flaw | where | status | finding (check) |', '|---|---|---|---|'];
  for (const row of first.summary.rows) {
    if (row.role !== 'required') continue;
    const { runsFound, labels } = creditedTo(runs, row.id);
    const status = runsFound === 0 ? (row.status === 'found' ? 'found' : row.status) : runsFound === runs.length ? 'found' : `found in ${runsFound} of ${runs.length} runs`;
    const what = runsFound > 0 ? labels.slice(0, 3).join('; ') : MISSED_WHY[row.id] ?? 'no finding at this operation in an accepted category';
    lines.push(`| ${row.id} ${cell(row.name)} | ${cell(row.where.join(', '))} | ${status} | ${cell(what)} |`);
  }
  return lines;
}

function falseAlarmList(runs: DetectRun[]): string[] {
  const seen = new Map<string, number>();
  for (const r of runs) {
    for (const fa of r.summary.falseAlarms) {
      const f = r.findings[fa.index];
      const key = `${fa.severity}: ${fa.where} "${fa.name}"${f ? ` (\`${f.check_id}\`)` : ''}, ${fa.why}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  if (!seen.size) return ['None at low or above.'];
  return [...seen].map(([k, n]) => `- ${k} — in ${n} of ${runs.length} runs`);
}

function extras(runs: DetectRun[]): string {
  const names = new Set<string>();
  for (const r of runs) for (const np of r.summary.notPenalised) names.add(`${np.entry} (${r.findings[np.index]?.vulnerability_name ?? np.where})`);
  return names.size ? [...names].sort().join(', ') : 'none';
}

function modeSection(mode: DetectMode, runs: DetectRun[]): string[] {
  const found = runs.map((r) => r.summary.found);
  const total = runs[0]!.summary.total;
  const fas = Math.max(...runs.map((r) => r.summary.false));
  const req = runs.map((r) => r.requests).sort((a, b) => a - b);
  const secs = runs.map((r) => r.ms / 1000).sort((a, b) => a - b);
  const title = mode === 'vulnerable' ? 'Vulnerable mode' : 'Secure mode (most flaws fixed)';
  return [
    `## ${title}: found ${Math.min(...found)} of ${total}, ${fas} false alarm${fas === 1 ? '' : 's'} at low or above`,
    '',
    `${runs.length} run${runs.length === 1 ? '' : 's'}: found ${found.join(', ')}; ${req[Math.floor(req.length / 2)]} requests (median), ` +
      `${secs[Math.floor(secs.length / 2)]!.toFixed(1)} s per scan (median, slowest ${secs[secs.length - 1]!.toFixed(1)} s) at 100 requests/s.`,
    '',
    ...(mode === 'secure'
      ? ['Rows are the flaws the secure mode keeps; the others are fixed there, and a finding on them would be a false alarm.', '']
      : []),
    ...flawTable(runs),
    '',
    '**False alarms:**',
    '',
    ...falseAlarmList(runs),
    '',
    `Extra weaknesses reported (not counted, not penalised): ${extras(runs)}.`,
    '',
  ];
}

export function detectionDoc(runs: Record<DetectMode, DetectRun[]>, config: string, at: Date): string {
  return [
    '# Detection on real APIs',
    '',
    '<!-- Written by `npm run bench -- detect` (bench/detect). Do not edit by hand. -->',
    '',
    'Measured on APIs this project did not write, scored with `../shared/detect/score.mjs` against their',
    'documented flaws. The scanner is also measured on other real APIs that are not in this repository:',
    "no rule is keyed to one target's paths, names or messages. The CI test",
    '`test/cli/detect-vampi.test.ts` fails when a scan finds fewer flaws than the floor recorded here',
    '(`bench/results/detect.json`) or raises a false alarm at low or above.',
    '',
    `## VAmPI (erev0s/VAmPI @1713b54), ${at.toISOString().slice(0, 10)}`,
    '',
    'How: `../shared/targets/vampi/start.sh <port>` (vulnerable, and `VAMPI_VULNERABLE=0` for secure mode;',
    '60-second tokens, as upstream), then the CLI with two login identities and the scan\'s own users:',
    '',
    '```sh',
    'node bin/portcullis.js scan --spec ../shared/targets/vampi/src/openapi_specs/openapi3.yml \\',
    '  --base-url http://127.0.0.1:<port> --config scan.yaml --rps 100',
    '```',
    '',
    '```yaml',
    config.trimEnd(),
    '```',
    '',
    ...modeSection('vulnerable', runs.vulnerable),
    ...modeSection('secure', runs.secure),
  ].join('\n');
}
