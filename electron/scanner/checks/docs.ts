// docs/checks.md, generated from the check registry so the catalogue cannot drift from the code:
// `npm run docs:checks` writes it, and docs.test.ts fails when the committed file is stale.

import { FLAG_OWASP } from '../../../shared/constants';
import { severityOfCvss } from '../../../shared/severity';
import { cvssScore } from '../cvss';
import type { Check } from './types';

export const CATEGORIES: { id: string; title: string; note?: string }[] = [
  { id: 'API1:2023', title: 'Broken Object Level Authorization' },
  { id: 'API2:2023', title: 'Broken Authentication' },
  { id: 'API3:2023', title: 'Broken Object Property Level Authorization' },
  { id: 'API4:2023', title: 'Unrestricted Resource Consumption' },
  { id: 'API5:2023', title: 'Broken Function Level Authorization' },
  {
    id: 'API6:2023',
    title: 'Unrestricted Access to Sensitive Business Flows',
    note:
      'Partial in every tool, this one included: whether a flow is "sensitive" and how much use is abuse is a business decision no scanner ' +
      'can read from a spec. What is measurable is automated: bursts on the flows the importer tagged, reported at medium confidence at most (never high).',
  },
  { id: 'API7:2023', title: 'Server Side Request Forgery' },
  { id: 'API8:2023', title: 'Security Misconfiguration' },
  { id: 'API9:2023', title: 'Improper Inventory Management' },
  {
    id: 'API10:2023',
    title: 'Unsafe Consumption of APIs',
    note:
      'Partial in every tool, this one included: the risk lies in how the API trusts the third-party APIs it calls, which a scanner sees ' +
      'only where it can stand in for them (redirects, URLs it fetches, webhooks it accepts).',
  },
];

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function anchor(check: Check): string {
  return check.id;
}

function checkSection(c: Check): string {
  const score = cvssScore(c.cvss);
  const per = c.scope === 'api' ? 'per scan' : 'per endpoint';
  const rows: [string, string][] = [
    ['Flag', `\`${c.flag}\` (${FLAG_OWASP[c.flag].title})`],
    ['Severity / confidence', `${severityOfCvss(score)} / ${c.confidence} (typical finding: a finding's severity is the CVSS band of its own vector)`],
    ['CVSS 3.1', `${score.toFixed(1)} \`${c.cvss}\``],
    ['CWE', `[${c.cwe}](https://cwe.mitre.org/data/definitions/${c.cwe.replace('CWE-', '')}.html)`],
    ['Kind', `${c.kind}, ${c.safety}${c.safety === 'intrusive' ? ' (writes only to objects the scan created, or restores what it changed)' : ''}`],
    ['Request budget', c.budget === 0 ? 'none: reads the shared baselines only' : `${c.budget} ${per} (baselines and created objects not counted)`],
    ['Needs key 2', c.needsKey2 ? 'yes: skipped, with the reason in the scan results, without a second key or when both keys are the same user' : 'no'],
    ...(c.techniques?.length ? ([['SCANNER.md technique', c.techniques.join(', ')]] as [string, string][]) : []),
  ];
  return [
    `### \`${c.id}\` — ${c.title}`,
    '',
    `<a id="${anchor(c)}"></a>`,
    '',
    '| | |',
    '|---|---|',
    ...rows.map(([k, v]) => `| ${k} | ${cell(v)} |`),
    '',
    `**What it sends, and what proves a finding.** ${c.description}`,
    '',
    `**Coverage.** ${c.coverage ?? 'No coverage notes recorded for this check.'}`,
    '',
    `**Remediation.** ${c.remediation}`,
    '',
    `**References.** ${c.references.map((r) => `<${r}>`).join(' · ')}`,
    '',
  ].join('\n');
}

export function checksDoc(checks: readonly Check[]): string {
  const byCategory = (id: string) => checks.filter((c) => c.owasp === id);
  const coverageRows = CATEGORIES.map((cat) => {
    const list = byCategory(cat.id);
    const state = !list.length ? 'not covered yet' : cat.note ? 'partial' : 'covered';
    return `| ${cat.id} ${cat.title} | ${list.length ? list.map((c) => `[\`${c.id}\`](#${anchor(c)})`).join(', ') : '—'} | ${state} |`;
  });
  const sections = CATEGORIES.map((cat) => {
    const list = byCategory(cat.id);
    return [
      `## ${cat.id} ${cat.title}`,
      '',
      ...(cat.note ? [`> **Coverage is partial.** ${cat.note}`, ''] : []),
      ...(list.length ? list.map(checkSection) : ['No check of this category is registered in this build.', '']),
    ].join('\n');
  });
  return [
    '# Checks',
    '',
    '<!-- Generated from the check registry (electron/scanner/checks/index.ts) by `npm run docs:checks`. Do not edit by hand:',
    '     electron/scanner/checks/docs.test.ts fails when this file is stale. -->',
    '',
    `Portcullis runs ${checks.length} checks, grouped below by OWASP API Security Top 10 (2023) category. Each says what it sends, what`,
    'proves a finding, how severe a typical finding is, and what it cannot see. `../shared/SCANNER.md` is the catalogue the checks implement.',
    '',
    '## Ground rules every check follows',
    '',
    '- **Baselines first.** Each endpoint\'s request is recorded as key 1, as key 2 and without credentials, once, and shared by the checks.',
    '- **Anonymous-baseline guard.** An endpoint that already answers without credentials is public: authorization checks do not fire on it.',
    '- **Two signals.** Medium confidence or more needs two independent signals (a 2xx and a body carrying the victim\'s data, say).',
    '- **Similarity, not equality.** JSON bodies are compared by structure and values, volatile fields (timestamps, ids of requests) left out.',
    '- **Proof of ownership.** A cross-user finding shows the object is the victim\'s: the scan created it as the victim, it is in the',
    '  victim\'s own listing and not the attacker\'s, the scan configuration lists it as the victim\'s (`objects:`), the answer carries',
    '  the victim\'s identity from a /me-like endpoint, or an owner-named field of the answer (`UserId`, `owner_id`, `user`, `author`...)',
    '  holds the victim\'s own id from its ownership ledger.',
    '- **Ownership ledger.** For each identity the scan learns which ids are its own from every answer it gets as that identity: its',
    '  login answer and the claims of its token (`sub`, `id`, `userId`; and object ids such as `basketId` or an abbreviated `bid`), its',
    '  /me-like answer, and the objects it created (the owner fields they answer with, where the two users\' objects differ). Where nothing',
    '  tells a user\'s id, each user creates one object with up to two of the API\'s create operations to learn it (four requests, once).',
    '  The ledger picks the other identity\'s ids for swaps and proves whose object an answer is. Short numeric ids collide (user 7, basket',
    '  7): a number proves ownership only under an owner-named field, and only when both users\' ids are known and differ.',
    '- **Objects of the scan\'s own.** A create refused with a 400 or 422 that names required fields, allowed values or formats is sent again',
    '  with them filled (at most twice per object), and later requests to that operation carry them from the start.',
    '- **Creates that name no id.** Where a create answers without the new object\'s id ({"status": "success"}), the GET on the create\'s',
    '  own path is read as the same identity, and the one entry that holds the unique values the create sent gives the id; the object',
    '  then counts as that identity\'s own, in the ledger and for the checks that use the scan\'s objects.',
    '- **Creates refused as duplicates.** A create answered 409, or 400/422/500 whose message says unique, duplicate or already exists',
    '  (a bare "validation error" counts only where the same operation was created before), is sent once more with its other top-level',
    '  id fields changed: another id of that kind from the API\'s own listing of it (ProductId from GET /products, a different one on each',
    '  retry), else the next small integer. The field under test, owner fields and the caller\'s own parent object (its basket) stay, so',
    '  two probes that name the same example ids no longer spoil each other (the scan\'s resource pool, the forged-owner and out-of-range checks).',
    '- **Writes behind a challenge.** A GET whose path or operation names a challenge (captcha, challenge) is read once to learn its',
    '  shape (any other GET seen handing out an arithmetic challenge with its answer counts too): an id field beside the answer it',
    '  hands out, or beside an arithmetic question (worked out by a small evaluator of integers and + - * /, never eval). A write',
    '  whose body, schema or example names that id field and a field for the answer (the challenge\'s own field names, or answer,',
    '  solution, response), or whose refusal names the challenge route or its id field, is guarded: before each of its sends, by any',
    '  check, one fresh challenge is fetched as the same identity (charged to the scan\'s budget, not the check\'s) and its id and',
    '  answer go into the body (a check\'s probe of those fields themselves is left as it made it); a write learnt from its refusal is',
    '  sent once more. Challenges a script cannot answer (pictures, riddles) are left alone, and an anonymous write that passes only',
    '  with the answer is a public form, not a missing credential.',
    '- **A write read back sees itself.** Checks run side by side and often write the same object (the caller\'s own record above',
    '  all). A check\'s PUT, PATCH or DELETE holds that object\'s address until the same check\'s next request has been answered',
    '  (its read-back) or the check ends; other checks\' writes to the object wait their turn, reads never wait. A check writing',
    '  again without reading lets waiting writers go first (except inside a race burst); a wait that would close a circle is not',
    '  entered, a check entering a timing measurement gives its holds up, and no wait lasts over 5 s. So whether a stored marker is seen does',
    '  not depend on which check\'s write came last.',
    '- **Safety.** Writes and deletes touch only objects the scan created (or the caller\'s own record, restored afterwards) unless the',
    '  scan may write to existing objects (`writes: existing`); every request stays on the API\'s host; each check keeps to its request budget.',
    '- **Routes beyond the spec.** When `api9-undocumented-endpoints` runs, a discovery phase comes before the checks: it reads',
    '  robots.txt and sitemaps, the links and scripts of the pages at the origin root and the base path (route-like string literals of',
    '  same-origin scripts, read by a small tokenizer that skips comments and regular expressions), directory listings, URLs in the',
    '  answers of documented GETs (plain values, HAL `_links`, JSON:API `links`, `Location` headers), other API descriptions the server',
    '  publishes (imported like a file) and sibling versions of versioned paths. A route is kept only when its GET answers unlike a random',
    '  path at the same place (a redirect counts where nothing-here is not one); numeric, UUID and hexadecimal segments become path',
    '  parameters and query names seen become query parameters. Kept routes inside the base path are scanned by every check like',
    '  imported ones and shown as discovered in the coverage. GETs only, at most 150 requests; a published description\'s operations keep',
    '  their methods, and writes to them follow the scan\'s write policy.',
    '- **Evidence.** A finding shows `Method:` and `Path:`, the baseline and attack exchanges with keys redacted, and a `curl` command.',
    '- **Severity and confidence are separate.** Severity is the impact if real; confidence is how sure the proof is. CVSS 3.1 scores come',
    '  from each finding\'s vector.',
    '',
    '## Coverage',
    '',
    '| OWASP category | Checks | Coverage |',
    '|---|---|---|',
    ...coverageRows,
    '',
    ...sections,
  ].join('\n');
}
