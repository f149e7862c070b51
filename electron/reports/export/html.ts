// The HTML export: one self-contained file (inline CSS and SVG, no scripts, no external resources,
// a Content-Security-Policy that forbids loading anything). Every string that comes from a finding,
// the API or the scan is HTML-escaped, so hostile evidence stays text.

import { curlVariablesLine } from '../../../shared/curl-variables';
import { PRODUCT_NAME } from '../../../shared/constants';
import { noteHeading, PROBLEMS_LEAD } from '../../../shared/scan-notes';
import { SEVERITY_LEVELS, severityText, type SeverityLevel } from '../../../shared/severity';
import { createdUserLabel, day, endpointLabel, findingLocation, firstSentence, identityObtained, plural, ROLE_LABELS, safeUrl, seconds, showBidiControls, when, type RenderOptions } from '../format';
import { markdownLines, type Span } from '../markdown';
import { durationSeconds, findingNumbers, fixedFindings, groupByCategory, LEVEL_LABELS, summarize, type ReportFinding, type ReportInput } from '../model';
import { categoryLabel, COVERAGE_LABELS, owaspCategory } from '../owasp';
import { levelColor, SEVERITY_COLORS, scoreColor, scoreRating } from '../pdf/charts';
import { COVERAGE_COLORS, topRisks, verdict, whyItMatters } from '../pdf/executive';
import { COVERAGE_APPENDIX_TITLE, coverageAppendix, MAX_IDENTITY_COLUMNS, STATUS_TONE_COLORS, type CoverageRow, type SkipGroup } from '../operations-coverage';
import { THEME } from '../pdf/layout';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in element content and in quoted attribute values. */
export function esc(value: unknown): string {
  // eslint-disable-next-line no-control-regex -- control characters have no place in a report page
  return showBidiControls(String(value ?? '')).replace(/[&<>"']/g, (c) => ESCAPES[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd');
}

function spanHtml(s: Span): string {
  if (s.code) return `<code>${esc(s.text)}</code>`;
  if (s.bold) return `<strong>${esc(s.text)}</strong>`;
  if (s.href) return link(s.href, s.text);
  return esc(s.text);
}

/**
 * Check text with its Markdown rendered: `code` as <code>, **bold**, http(s) links, "- " lines as a
 * list. Every span's text is escaped on its own, so the markup can only ever produce these elements.
 */
export function mdHtml(text: string): string {
  const out: string[] = [];
  let items: string[] = [];
  let lines: string[] = [];
  const endList = () => {
    if (items.length) out.push(`<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`);
    items = [];
  };
  const endPara = () => {
    if (lines.length) out.push(`<p>${lines.join('<br>')}</p>`);
    lines = [];
  };
  for (const line of markdownLines(text)) {
    const html = line.spans.map(spanHtml).join('');
    if (line.item) {
      endPara();
      items.push(html);
    } else {
      endList();
      if (html.trim()) lines.push(html);
      else endPara();
    }
  }
  endList();
  endPara();
  return out.join('') || '<p>—</p>';
}

/** One line of check text with its Markdown rendered (no block elements). */
const mdInline = (text: string): string => markdownLines(text).map((l) => l.spans.map(spanHtml).join('')).join(' ');

function link(url: string, text: string = url): string {
  const safe = safeUrl(url);
  return safe ? `<a href="${esc(safe)}" rel="noopener noreferrer">${esc(text)}</a>` : esc(text);
}

const f1 = (n: number) => (Math.round(n * 100) / 100).toString();

function gaugeSvg(score: number): string {
  const cx = 110;
  const cy = 104;
  const ro = 92;
  const ri = 72;
  const angle = (s: number) => -Math.PI / 2 + (Math.PI * s) / 100;
  const pt = (r: number, a: number) => `${f1(cx + r * Math.sin(a))} ${f1(cy - r * Math.cos(a))}`;
  const band = (a: number, b: number, color: string) =>
    `<path d="M ${pt(ro, angle(a))} A ${ro} ${ro} 0 0 1 ${pt(ro, angle(b))} L ${pt(ri, angle(b))} A ${ri} ${ri} 0 0 0 ${pt(ri, angle(a))} Z" fill="${color}"/>`;
  const a = angle(Math.max(0, Math.min(100, score)));
  const needle = `<path d="M ${pt(4, a + Math.PI / 2)} L ${pt(ri - 4, a)} L ${pt(4, a - Math.PI / 2)} Z" fill="#1f2933"/><circle cx="${cx}" cy="${cy}" r="6" fill="#1f2933"/>`;
  return `<svg class="gauge" viewBox="0 0 220 150" role="img" aria-label="Security score ${score} out of 100">${band(0, 50, '#c62828')}${band(50, 70, '#e65100')}${band(70, 90, '#d4a106')}${band(90, 100, '#2e7d32')}${needle}<text x="${cx}" y="138" text-anchor="middle" font-size="30" font-weight="700" fill="${scoreColor(score)}">${score}</text></svg>`;
}

function barsSvg(counts: Record<SeverityLevel, number>): string {
  const max = Math.max(1, ...Object.values(counts));
  const rows = SEVERITY_LEVELS.map((s, i) => {
    const y = i * 26;
    const w = (260 * counts[s]) / max;
    return `<text x="0" y="${y + 13}" font-size="12" fill="#1f2933">${LEVEL_LABELS[s]}</text><rect x="64" y="${y + 2}" width="260" height="14" fill="#eef1f5"/><rect x="64" y="${y + 2}" width="${f1(Math.max(w, counts[s] ? 2 : 0))}" height="14" fill="${SEVERITY_COLORS[s]}"/><text x="332" y="${y + 14}" font-size="12" font-weight="700" fill="#1f2933">${counts[s]}</text>`;
  });
  return `<svg class="bars" viewBox="0 0 360 130" role="img" aria-label="Findings by severity">${rows.join('')}</svg>`;
}

function levelCells(by: Record<SeverityLevel, number>): string {
  return SEVERITY_LEVELS.map((l) => `<td class="num">${by[l]}</td>`).join('');
}

function trendSvg(points: { label: string; score: number | null; current: boolean }[]): string {
  const w = 640;
  const h = 180;
  const x0 = 36;
  const y0 = 10;
  const ph = h - 40;
  const step = (w - x0) / Math.max(points.length, 1);
  const yOf = (s: number) => y0 + ph - (ph * s) / 100;
  const grid = [0, 25, 50, 75, 100].map((g) => `<line x1="${x0}" y1="${f1(yOf(g))}" x2="${w}" y2="${f1(yOf(g))}" stroke="#d9e2ec" stroke-dasharray="${g ? '2 2' : '0'}"/><text x="${x0 - 6}" y="${f1(yOf(g) + 4)}" font-size="10" text-anchor="end" fill="#52606d">${g}</text>`);
  const xs = points.map((_, i) => x0 + step * (i + 0.5));
  const scored = points.map((p, i) => ({ p, x: xs[i]! })).filter((q) => q.p.score !== null);
  const line = scored.length > 1 ? `<polyline fill="none" stroke="#1d4ed8" stroke-width="2" points="${scored.map((q) => `${f1(q.x)},${f1(yOf(q.p.score!))}`).join(' ')}"/>` : '';
  const dots = scored.map((q) => `<circle cx="${f1(q.x)}" cy="${f1(yOf(q.p.score!))}" r="${q.p.current ? 5 : 3.5}" fill="${q.p.current ? scoreColor(q.p.score!) : '#fff'}" stroke="${q.p.current ? '#1f2933' : '#1d4ed8'}"/><text x="${f1(q.x)}" y="${f1(yOf(q.p.score!) - 9)}" font-size="10" text-anchor="middle">${q.p.score}</text>`);
  const labels = points.map((p, i) => `<text x="${f1(xs[i]!)}" y="${h - 8}" font-size="10" text-anchor="middle" fill="#52606d"${p.current ? ' font-weight="700"' : ''}>${esc(p.label)}</text>`);
  return `<svg class="trend" viewBox="0 0 ${w} ${h}" role="img" aria-label="Security score over time">${grid.join('')}${line}${dots.join('')}${labels.join('')}</svg>`;
}

const CSS = `
:root{--ink:#1f2933;--muted:#52606d;--rule:#d9e2ec;--accent:#1d4ed8;--code:#f5f7fa}
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:#fff}
main{max-width:980px;margin:0 auto;padding:24px 28px 64px}header.cover{background:var(--accent);color:#fff;padding:28px}
header.cover .brand{letter-spacing:.12em;font-weight:700;font-size:12px;opacity:.8}header.cover h1{margin:6px 0 4px;font-size:30px}
header.cover .api{font-size:20px;font-weight:700;margin-top:14px;overflow-wrap:anywhere}header.cover code{color:#dfe7fd}
h2{border-bottom:1px solid var(--rule);padding-bottom:4px;margin-top:40px}h3{margin:24px 0 6px}h4{margin:16px 0 4px;font-size:13px}
nav ol{columns:2;padding-left:18px}a{color:var(--accent)}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:8px 18px;margin:12px 0}.facts div{overflow-wrap:anywhere}.facts b{display:block;font-size:11px;color:var(--muted);font-weight:600;text-transform:uppercase;letter-spacing:.04em}
.row{display:flex;flex-wrap:wrap;gap:24px;align-items:center}.gauge{width:240px}.bars{width:380px;max-width:100%}.trend{width:100%;max-width:680px}
table{border-collapse:collapse;width:100%;margin:8px 0 16px;font-size:13px}th,td{border-bottom:1px solid var(--rule);padding:6px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}th{background:#eef2f7;color:var(--muted);font-size:12px}
td.num,th.num{text-align:right}.dot{display:inline-block;width:9px;height:9px;border-radius:50%;margin-right:6px;vertical-align:baseline}
.badge{display:inline-block;color:#fff;border-radius:4px;padding:1px 7px;font-size:12px;font-weight:700;margin-right:8px}
pre{background:var(--code);border:1px solid #dde3ea;border-radius:4px;padding:10px;white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-all;font:12px/1.45 ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
details.finding{border:1px solid var(--rule);border-radius:6px;padding:8px 14px;margin:10px 0}details.finding>summary{cursor:pointer;font-weight:700;overflow-wrap:anywhere}
dl.meta{display:grid;grid-template-columns:110px 1fr;gap:2px 12px;margin:10px 0}dl.meta dt{color:var(--muted);font-weight:600}dl.meta dd{margin:0;overflow-wrap:anywhere}
p code,li code{background:var(--code);border-radius:3px;padding:0 3px;font:12px ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
.muted{color:var(--muted)}table.ops td.op{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px}table.ops td.op.unreached{font-weight:700}
.st{white-space:nowrap;font-size:12px}${Object.entries(STATUS_TONE_COLORS).map(([tone, color]) => `.st-${tone}{color:${color}}`).join('')}
.problems{background:${THEME.warningBg};border:1px solid ${THEME.warningBorder};border-left-width:4px;border-radius:4px;padding:10px 14px;margin:16px 0}.problems h3{margin:0 0 4px;color:${THEME.warning}}.problems p{margin:0 0 6px}.problems ul{margin:0}
.skip{margin:0 0 6px}.skip:last-child{margin-bottom:0}.skip .detail{display:block;color:var(--muted);font-size:12px}footer{margin-top:48px;color:var(--muted);font-size:12px}
@media print{details.finding{break-inside:avoid-page}details.finding>summary{list-style:none}header.cover,.problems{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
`;

function sevBadge(f: ReportFinding): string {
  const color = levelColor(f);
  return `<span class="badge" style="background:${color}">${esc(severityText(f))}</span>`;
}

/** The technical report's identity table and registered users; empty for scans from before identities. */
function identitiesHtml(input: ReportInput): string {
  const { identities, created_users: users } = input.scan;
  const out: string[] = [];
  if (identities.length) {
    out.push(`<h3>Identities</h3><p class="muted">Who the scan spoke as: how each credential was obtained, who the API said it was, how often it was renewed and how many logins failed. No secret is shown.</p>
<table><thead><tr><th>Identity</th><th>Role</th><th>How obtained</th><th>Verified as</th><th class="num">Refreshes</th><th class="num">Failed logins</th></tr></thead><tbody>
${identities
  .map(
    (i) =>
      `<tr><td>${esc(i.name)}</td><td>${esc(ROLE_LABELS[i.role])}</td><td>${esc(identityObtained(i))}</td>${i.verified_as === null ? '<td class="muted">not verified</td>' : `<td>${esc(i.verified_as)}</td>`}<td class="num">${i.refreshes}</td><td class="num">${i.failures ? `<b>${i.failures}</b>` : '0'}</td></tr>`,
  )
  .join('\n')}
</tbody></table>`);
  }
  if (users.length) {
    out.push(`<h3>Users the scan registered</h3><table><thead><tr><th>User</th><th>Registered with</th><th>What for</th></tr></thead><tbody>
${users.map((u) => `<tr><td><code>${esc(createdUserLabel(u))}</code></td><td>${u.operation ? `<code>${esc(u.operation)}</code>` : '—'}</td><td>${esc(u.purpose || '—')}</td></tr>`).join('\n')}
</tbody></table>`);
  }
  return out.join('\n');
}

/** A GraphQL finding's request: the query and variables (the operation is in the facts above), and the batch size. */
function graphqlHtml(f: ReportFinding): string {
  const g = f.graphql;
  if (!g) return '';
  const batch = g.batch ? `<p>Batch of ${g.batch} operation${g.batch === 1 ? '' : 's'}.</p>` : '';
  return `<h4>GraphQL query</h4>${batch}<pre>${esc(g.query)}</pre>${g.variables ? `<h4>GraphQL variables</h4><pre>${esc(g.variables)}</pre>` : ''}
`;
}

/** The shell variables the curl text reads, to export before running it. */
function variablesHtml(curl: string): string {
  const line = curlVariablesLine(curl);
  return line ? `<p class="muted">${esc(line)}</p>` : '';
}

function findingHtml(f: ReportFinding, number: string): string {
  const refs = f.references.length ? `<h4>References</h4><ul>${f.references.map((r) => `<li>${link(r)}</li>`).join('')}</ul>` : '';
  const meta: [string, string][] = [
    ['Severity', esc(severityText(f))],
    ['CVSS', `${f.cvss_score.toFixed(1)} <code>${esc(f.cvss_vector)}</code>`],
    ['Endpoint', `<code>${esc(endpointLabel(f.method, f.path))}</code>`],
    ...(f.graphql?.operation ? [['Operation', `<code>${esc(f.graphql.operation)}</code>`] as [string, string]] : []),
    ['Confidence', esc(f.confidence)],
    ['OWASP', esc(f.owasp)],
    ['CWE', esc(f.cwe ?? '—')],
    ['Parameter', f.parameter ? `<code>${esc(f.parameter)}</code>` : '—'],
    ['Check', `<code>${esc(f.check_id)}</code>`],
    ['Trend', f.trend === 'recurring' ? 'Recurring' : 'New'],
    ['Fingerprint', `<code>${esc(f.fingerprint)}</code>`],
  ];
  return `<details class="finding" id="${esc(number.toLowerCase())}" open><summary>${sevBadge(f)}${esc(number)} ${esc(f.vulnerability_name)} <span class="muted">· ${esc(findingLocation(f))}</span></summary>
<dl class="meta">${meta.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>
<h4>Description</h4>${mdHtml(f.description)}
${graphqlHtml(f)}<h4>Evidence</h4><pre>${esc(f.evidence || 'No evidence recorded.')}</pre>
<h4>Reproduce</h4>${f.curl.trim() ? `<pre>${esc(f.curl)}</pre>${variablesHtml(f.curl)}` : '<p class="muted">No reproduction command was recorded for this finding.</p>'}
<h4>Recommendation</h4>${mdHtml(f.recommendation)}${refs}</details>`;
}

function statusCells(columns: string[], row: CoverageRow): string {
  if (columns.length <= MAX_IDENTITY_COLUMNS) return row.identities.map((s) => `<td class="st st-${s.tone}">${s.parts.length ? s.parts.map(esc).join('<br>') : '—'}</td>`).join('');
  const lines = row.identities.flatMap((s, i) => (s.parts.length ? [`<span class="st st-${s.tone}">${esc(columns[i])}: ${s.parts.map(esc).join(', ')}</span>`] : []));
  return `<td>${lines.length ? lines.join('<br>') : '<span class="st st-none">—</span>'}</td>`;
}

function skipHtml(g: SkipGroup): string {
  const details = g.details.map((d) => `<span class="detail">${esc(d)}</span>`).join('');
  return `<div class="skip"><b>${esc(g.label)}: ${esc(plural(g.checks.length, 'check'))}</b> ${g.checks.map((c) => `<code>${esc(c)}</code>`).join(', ')}${details}</div>`;
}

/** The coverage appendix (issue 26): every operation, what each identity got back, and why a check could not exercise it. */
function operationsCoverageHtml(input: ReportInput): string {
  const cov = input.operations_coverage;
  if (!cov) return '';
  const a = coverageAppendix(cov);
  const heads = a.columns.length <= MAX_IDENTITY_COLUMNS ? a.columns.map((c) => `<th>${esc(c)}</th>`).join('') : '<th>Answers by identity</th>';
  const opCell = (r: CoverageRow) => `<td class="op${r.reached ? '' : ' unreached'}">${esc(r.label)}</td>`;
  const out: string[] = [`<section id="operations-coverage"><h2>${COVERAGE_APPENDIX_TITLE}</h2><p><b>${esc(a.sentence)}</b></p>
<p class="muted">For each operation of the API: how the requests each identity sent it ended, which checks tested it and which found something, and why a check could not exercise it. “registered users” are the users the scan registered for itself; “anonymous” requests carry no credentials. A status such as “2xx 14” counts the requests an identity sent and how they ended; “—” means it sent none; an operation in bold answered no identity with a 2xx.</p>`];
  if (a.reasons.length) {
    out.push(`<h3>The commonest ${a.reasons.length === 1 ? 'reason' : 'reasons'}, and what to do</h3><ul>${a.reasons
      .map((r) => `<li><b>${esc(r.label)}</b>, ${r.count === 1 ? 'once' : `${r.count} times`}: ${mdInline(r.fix)}.</li>`)
      .join('')}</ul>`);
  }
  if (a.attention.length) {
    out.push(`<h3>Operations not reached or not fully exercised (${a.attention.length})</h3>
<table class="ops"><thead><tr><th>Operation</th>${heads}<th class="num">Ran / found</th><th>Not exercised, and why</th></tr></thead><tbody>
${a.attention.map((r) => `<tr>${opCell(r)}${statusCells(a.columns, r)}<td class="num">${r.ran} / ${r.found}</td><td>${r.skips.length ? r.skips.map(skipHtml).join('') : '—'}</td></tr>`).join('\n')}
</tbody></table>`);
  }
  if (a.exercised.length) {
    out.push(`<h3>Reached and exercised by every check that applies (${a.exercised.length})</h3>
<table class="ops"><thead><tr><th>Operation</th>${heads}<th class="num">Ran / found</th></tr></thead><tbody>
${a.exercised.map((r) => `<tr>${opCell(r)}${statusCells(a.columns, r)}<td class="num">${r.ran} / ${r.found}</td></tr>`).join('\n')}
</tbody></table>`);
  }
  out.push('</section>');
  return out.join('\n');
}

export function toHtml(input: ReportInput, opts: RenderOptions): string {
  const s = summarize(input);
  const numbers = findingNumbers(input.findings);
  const title = `${PRODUCT_NAME} Security Report — ${input.api.name}`;
  const out: string[] = [];
  out.push(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="${esc(PRODUCT_NAME)}">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="cover"><div class="brand">${esc(PRODUCT_NAME.toUpperCase())}</div><h1>Security Report</h1><div>OWASP API Security Top 10 (2023)</div>
<div class="api">${esc(input.api.name)}</div><code>${esc(input.api.base_url)}</code></header>
<main>
<nav><h2>Contents</h2><ol><li><a href="#summary">Summary</a></li><li><a href="#risks">Top risks</a></li><li><a href="#coverage">Coverage</a></li><li><a href="#trend">Trend</a></li><li><a href="#findings">Findings (${s.total})</a></li>${input.history.length ? '<li><a href="#fixed">Fixed since the previous scan</a></li>' : ''}<li><a href="#endpoints">Endpoints</a></li>${input.operations_coverage ? `<li><a href="#operations-coverage">${COVERAGE_APPENDIX_TITLE}</a></li>` : ''}<li><a href="#scan">About this scan</a></li></ol></nav>`);

  out.push(`<section id="summary"><h2>Summary</h2><div class="row">${gaugeSvg(input.scan.score)}<div class="facts" style="flex:1">
<div><b>Security score</b>${input.scan.score} / 100 — ${esc(scoreRating(input.scan.score))}</div>
<div><b>Vulnerabilities</b>${s.vulnerabilities}</div><div><b>Critical (CVSS ≥ 9.0)</b>${s.critical}</div>
<div><b>Endpoints tested</b>${s.endpoints_tested} of ${s.endpoints_total}</div><div><b>Requests sent</b>${input.scan.requests_sent}</div>
<div><b>Completed</b>${esc(when(input.scan.completed_at, opts))}</div><div><b>Duration</b>${esc(seconds(durationSeconds(input.scan)))}</div>
<div><b>Scan</b><code>${esc(input.scan.id)}</code></div></div></div>
<h3>Findings by severity</h3>${barsSvg(s.by_severity)}
${verdict(input, opts).map((p) => `<p>${esc(p)}</p>`).join('\n')}</section>`);

  const risks = topRisks(input.findings);
  out.push(
    `<section id="risks"><h2>Top risks</h2>${
      risks.length
        ? risks
            .map((r, i) => {
              const f = r.worst;
              const cat = owaspCategory(f.owasp);
              const eps = [...new Set(r.findings.map((x) => endpointLabel(x.method, x.path)))];
              return `<h3>${i + 1}. ${esc(f.vulnerability_name)}</h3><p>${sevBadge(f)}CVSS ${f.cvss_score.toFixed(1)}${cat ? ` · ${esc(cat.id)} ${esc(cat.title)}` : ''}</p>
<p><b>Where:</b> ${esc(plural(eps.length, 'endpoint'))} — ${eps.slice(0, 5).map((e) => `<code>${esc(e)}</code>`).join(', ')}${eps.length > 5 ? ` and ${eps.length - 5} more` : ''}</p>
<p><b>Why it matters:</b> ${mdInline(whyItMatters(r))}</p><p><b>What to do:</b> ${mdInline(firstSentence(f.recommendation, 400))}</p>`;
            })
            .join('\n')
        : '<p>There are no risks to report: the scan found no issues in the checks it ran.</p>'
    }</section>`,
  );

  out.push(`<section id="coverage"><h2>OWASP API Security Top 10 (2023) coverage</h2>
<p>What this scan tested in each category, what it skipped and why. API6 and API10 are partial in every automated tool.</p>
<table><thead><tr><th>Category</th><th>Status</th><th class="num">Endpoints</th><th class="num">Findings</th><th>What was tested</th><th>Notes: skipped and why</th></tr></thead><tbody>
${input.coverage
  .map(
    (c) =>
      `<tr><td>${esc(c.id)} ${esc(c.title)}</td><td><span class="dot" style="background:${COVERAGE_COLORS[c.status]}"></span>${COVERAGE_LABELS[c.status]}</td><td class="num">${c.endpoints_tested}</td><td class="num">${c.findings}</td><td>${esc(c.tested)}</td><td>${esc(c.note)}${c.skipped.map((k) => `<br>Skipped ${esc(k.title)} (<code>${esc(k.check_id)}</code>): ${esc(k.reason)}`).join('')}</td></tr>`,
  )
  .join('\n')}
</tbody></table></section>`);

  if (input.history.length) {
    const points = [
      ...input.history.map((h) => ({ label: day(h.completed_at, opts), score: h.score, current: false })),
      { label: day(input.scan.completed_at, opts), score: input.scan.score, current: true },
    ];
    out.push(`<section id="trend"><h2>Trend</h2>${trendSvg(points)}
<table><thead><tr><th>Scan</th><th class="num">Score</th><th class="num">Vulnerabilities</th>${SEVERITY_LEVELS.map((l) => `<th class="num">${LEVEL_LABELS[l]}</th>`).join('')}</tr></thead><tbody>
${input.history.map((h) => `<tr><td>${esc(day(h.completed_at, opts))}</td><td class="num">${h.score ?? '—'}</td><td class="num">${h.vulnerabilities}</td>${levelCells(h.by_severity)}</tr>`).join('\n')}
<tr><td><b>${esc(day(input.scan.completed_at, opts))} (this scan)</b></td><td class="num"><b>${input.scan.score}</b></td><td class="num"><b>${s.vulnerabilities}</b></td>${levelCells(s.by_severity)}</tr>
</tbody></table><p>${esc(`${plural(s.new, 'new vulnerability', 'new vulnerabilities')}, ${plural(s.recurring, 'recurring vulnerability', 'recurring vulnerabilities')}, ${plural(s.fixed, 'fixed finding')} since the previous scan.`)}</p></section>`);
  } else {
    out.push('<section id="trend"><h2>Trend</h2><p>This is the first completed scan of this API, so there is nothing to compare with yet.</p></section>');
  }

  out.push('<section id="findings"><h2>Findings</h2>');
  if (!input.findings.length) out.push('<p>The scan found no issues in the checks it ran.</p>');
  for (const g of groupByCategory(input.findings)) {
    out.push(`<h3>${esc(categoryLabel(g.category))} (${g.findings.length})</h3>`);
    for (const f of g.findings) out.push(findingHtml(f, numbers.get(f.id)!));
  }
  out.push('</section>');

  if (input.history.length) {
    out.push(
      `<section id="fixed"><h2>Fixed since the previous scan</h2>${
        fixedFindings(input).length
          ? `<table><thead><tr><th>Finding</th><th>Endpoint</th><th>Fingerprint</th></tr></thead><tbody>${fixedFindings(input).map((x) => `<tr><td>${esc(x.vulnerability_name)}</td><td><code>${esc(endpointLabel(x.method, x.path).trim())}</code></td><td><code>${esc(x.fingerprint)}</code></td></tr>`).join('')}</tbody></table>`
          : '<p>No finding of the previous scan has disappeared.</p>'
      }</section>`,
    );
  }

  out.push(`<section id="endpoints"><h2>Endpoints</h2><table><thead><tr><th>Method</th><th>Path</th><th>Flags</th></tr></thead><tbody>
${input.endpoints.map((e) => `<tr><td><code>${esc(e.method)}</code></td><td><code>${esc(e.path)}</code></td><td>${esc(e.flags.join(', ') || '—')}</td></tr>`).join('\n')}
</tbody></table></section>`);

  out.push(operationsCoverageHtml(input));

  const { problems, info_notes: info } = input.scan;
  out.push(`<section id="scan"><h2>About this scan</h2>
${problems.length ? `<div class="problems" role="note"><h3>${esc(noteHeading('problem', problems.length))}</h3><p>${esc(PROBLEMS_LEAD)}</p><ul>${problems.map((e) => `<li>${esc(e)}</li>`).join('')}</ul></div>` : ''}
<div class="facts">
<div><b>Profile</b>${esc(input.scan.profile)}</div><div><b>Started</b>${esc(when(input.scan.started_at, opts))}</div><div><b>Completed</b>${esc(when(input.scan.completed_at, opts))}</div>
<div><b>Progress</b>${input.scan.progress.done} of ${input.scan.progress.total}</div><div><b>Score</b>${input.scan.score_source === 'stored' ? 'as computed by the scan' : 'computed from the findings'}</div></div>
${identitiesHtml(input)}
${input.scan.skipped_checks.length ? `<h3>Checks that did not run</h3><table><thead><tr><th>Check</th><th>Why</th></tr></thead><tbody>${input.scan.skipped_checks.map((c) => `<tr><td>${esc(c.title)} (<code>${esc(c.check_id)}</code>)</td><td>${esc(c.reason)}</td></tr>`).join('')}</tbody></table>` : ''}
${info.length ? `<h3>${esc(noteHeading('info', info.length))}</h3><ul>${info.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>` : ''}
</section>
<footer>Generated by ${esc(PRODUCT_NAME)} from the stored results of scan <code>${esc(input.scan.id)}</code>. Secrets used by the scan are redacted from evidence and commands. Share this report on a need-to-know basis.</footer>
</main>
</body>
</html>
`);
  return out.join('\n');
}
