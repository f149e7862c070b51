// API8:2023 Security Misconfiguration (injection): file names that climb out of their folder.


import { defineCheck, describeEndpoint } from '../common/helpers';
import { byPlace } from '../common/injection';
import {
    AS_KEY1,
    bodyText,
    describePoint,
    passwdMarker,
    pointSource,
    valueText,
    winIniMarker,
    type InjectionPoint,
} from '../common/input-points';
import { OWASP_API8 } from '../common/references';
import { probeBlocked } from '../../probe-safety';

// ---------------------------------------------------------------- NoSQL operators
// ---------------------------------------------------------------- OS command injection
// ---------------------------------------------------------------- path traversal

const FILE_NAME = /(file|path|filename|filepath|document|template|folder|dir|directory|download|attachment|include|resource)$/i;
const MAYBE_FILE_NAME = /(doc|page|report|log|img|image|src|name|key|load|read|view)$/i;

/** How much a value looks like a file name: 2 by name or value, 1 by a weaker name, 0 not. */
function fileLike(p: InjectionPoint): number {
  const v = String(p.value);
  if (/^https?:/i.test(v) || p.schema?.enum) return 0;
  if (FILE_NAME.test(p.key) || /\.[a-z0-9]{1,5}$/i.test(v) || /^[^\s]*[/\\][^\s]*$/.test(v)) return 2;
  return MAYBE_FILE_NAME.test(p.key) ? 1 : 0;
}
/** Enough ../ to climb from a deep install (/home/app/releases/2026/current/public/uploads/files) to the root; extra ones stop at the root. */
const TRAVERSAL_DEPTH = 14;
const TRAVERSALS: { value: (v: string) => string; marker: (t: string) => string | null; what: string }[] = [
  { value: () => `${'../'.repeat(TRAVERSAL_DEPTH)}etc/passwd`, marker: passwdMarker, what: '/etc/passwd' },
  { value: () => `${'....//'.repeat(TRAVERSAL_DEPTH)}etc/passwd`, marker: passwdMarker, what: '/etc/passwd' },
  { value: () => '/etc/passwd', marker: passwdMarker, what: '/etc/passwd' },
  { value: () => `${'..\\'.repeat(TRAVERSAL_DEPTH)}windows\\win.ini`, marker: winIniMarker, what: 'C:\\windows\\win.ini' },
];
const TRAVERSAL_POINTS = 2;

export const pathTraversal = defineCheck({
  id: 'api8-path-traversal',
  title: 'Path traversal',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-22',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: TRAVERSAL_POINTS * TRAVERSALS.length,
  description:
    'In string values that name files (file, path, document, template...; or hold a file name), sends ../ sequences (plain, filter-bypassing ' +
    '"....//", backslashes) to /etc/passwd and C:\\windows\\win.ini, and the absolute path. Finding when the answer contains that file ' +
    '(several passwd lines with root, or win.ini\'s sections) and the baseline answer does not.',
  coverage:
    'Only operations that read (GET, HEAD, GraphQL queries): on a write the path would name the file that is overwritten on the target\'s ' +
    'host. Writes are probed only when the scan may write to existing objects and the user named the operation (`destructive:`).',
  remediation:
    'Never join client input onto file paths: look files up by an id in an allow-list, or resolve the path and check it stays inside the ' +
    'intended directory (after decoding and normalisation) before opening it.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/22.html', 'https://owasp.org/www-community/attacks/Path_Traversal'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline) return;
    const before = `${bodyText(baseline)}\n${baseline.body}`;
    const points = src.points
      .filter((p) => p.type === 'string' && typeof p.value === 'string' && fileLike(p) > 0)
      .sort((a, b) => fileLike(b) - fileLike(a) || byPlace(a, b))
      .slice(0, TRAVERSAL_POINTS);
    // On a write, the path names the file that is overwritten: reads only, unless the user named the operation.
    const held = points.length ? probeBlocked(ep, 'file', ctx.options) : null;
    if (held) {
      ctx.holdBack(held);
      return;
    }
    for (const p0 of points) {
      for (const t of TRAVERSALS) {
        if (ctx.budgetLeft() <= 0) return;
        const p = await src.get(p0.name);
        if (!p) break;
        const value = t.value(valueText(p));
        const ex = await ctx.sendPrepared(p.with(value), AS_KEY1);
        if (!ex.response) continue;
        const marker = t.marker(`${bodyText(ex)}\n${ex.body}`);
        if (!marker || t.marker(before)) continue;
        yield {
          parameter: p.name,
          description:
            `${describeEndpoint(ep)} reads files named by ${describePoint(p)} outside the intended directory: ${JSON.stringify(value)} returned ` +
            `${t.what} (HTTP ${ex.status}; "${marker}"), which the baseline answer does not contain. Any file the server process can read ` +
            '(configuration, keys, source) is exposed.',
          notes: [`${describePoint(p)} = ${JSON.stringify(value)} -> ${t.what} (${marker}).`],
          exchanges: [
            { label: 'Baseline', exchange: baseline },
            { label: `Attack: ${value}`, exchange: ex },
          ],
          reproduce: ex,
        };
        return;
      }
    }
  },
});
