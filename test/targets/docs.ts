// The flaw table of docs/test-targets.md, generated from FLAWS so the two cannot drift apart
// (docs.test.ts checks it; UPDATE_DOCS=1 rewrites it).

import { FLAW_IDS, FLAWS } from './flaws';
import { PROBES } from './probes';

export const TABLE_START = '<!-- flaw-table:start (generated from test/targets/flaws.ts) -->';
export const TABLE_END = '<!-- flaw-table:end -->';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function flawTable(): string {
  const rows = FLAW_IDS.map((id) => {
    const f = FLAWS[id];
    const extra = [
      PROBES[id].alsoShownBy?.length ? ` Also shown by: ${PROBES[id].alsoShownBy!.map((x) => `\`${x}\``).join(', ')}.` : '',
      PROBES[id].options?.tls ? ' Needs the `tls` option.' : '',
    ].join('');
    return `| \`${id}\` | ${f.owasp} | ${cell(f.technique)} | ${cell(f.description)}${extra} | ${cell(f.hardened)} |`;
  });
  return [TABLE_START, '', '| FlawId | OWASP | SCANNER.md technique | What is wrong, how to trigger | Hardened twin instead |', '|---|---|---|---|---|', ...rows, '', TABLE_END].join('\n');
}
