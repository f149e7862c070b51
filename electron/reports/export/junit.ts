// The JUnit XML export for CI pipelines: one test suite per OWASP category, one test case per
// check x endpoint it applied to; a finding makes its test case fail, a skipped check is skipped.

import { PRODUCT_NAME } from '../../../shared/constants';
import { endpointLabel } from '../format';
import { severityText } from '../../../shared/severity';
import { durationSeconds, findingNumbers, type ReportCheck, type ReportFinding, type ReportInput } from '../model';
import { categoryLabel, OWASP_CATEGORIES } from '../owasp';

/** Text for XML content and attributes: escaped, and without characters XML 1.0 forbids. */
export function xml(value: unknown): string {
  return (
    String(value ?? '')
      // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these characters outright
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

export interface JunitCase {
  suite: string;
  classname: string;
  name: string;
  failures: ReportFinding[];
  skipped: string | null;
}

/** The test cases, in suite order: what the XML says, as data (tests assert on it too). */
export function junitCases(input: ReportInput): JunitCase[] {
  const active = input.endpoints.filter((e) => !e.flags.includes('SKIP'));
  const byCheck = new Map<string, ReportFinding[]>();
  for (const f of input.findings) byCheck.set(f.check_id, [...(byCheck.get(f.check_id) ?? []), f]);
  const cases: JunitCase[] = [];
  const endpointsFor = (c: ReportCheck): string[] => {
    if (c.endpoints) return c.endpoints;
    const cat = OWASP_CATEGORIES.find((x) => x.id === c.category);
    if (!cat) return [];
    return (cat.always ? active : active.filter((e) => e.flags.includes(cat.flag))).map((e) => endpointLabel(e.method, e.path));
  };
  for (const c of input.checks) {
    const found = byCheck.get(c.check_id) ?? [];
    const labels = [...endpointsFor(c)];
    for (const f of found) {
      const l = endpointLabel(f.method, f.path);
      if (!labels.includes(l)) labels.push(l);
    }
    if (!labels.length) labels.push('(no endpoint applied)');
    for (const name of labels) {
      cases.push({
        suite: c.category,
        classname: `${c.category.split(':')[0]}.${c.check_id}`,
        name,
        failures: found.filter((f) => endpointLabel(f.method, f.path) === name),
        skipped: c.status === 'skipped' ? (c.reason ?? 'Skipped.') : null,
      });
    }
  }
  return cases;
}

function failureBody(f: ReportFinding, number: string): string {
  return [
    `${number} ${f.vulnerability_name}`,
    `Severity: ${severityText(f)} · CVSS ${f.cvss_score.toFixed(1)} (${f.cvss_vector}) · Confidence: ${f.confidence}`,
    `OWASP: ${f.owasp}${f.cwe ? ` · ${f.cwe}` : ''}${f.parameter ? ` · Parameter: ${f.parameter}` : ''}`,
    `Fingerprint: ${f.fingerprint}`,
    ...(f.graphql ? [`GraphQL operation: ${f.graphql.operation ?? 'the API as a whole'}${f.graphql.batch ? ` (batch of ${f.graphql.batch})` : ''}`] : []),
    '',
    f.description,
    '',
    `Recommendation: ${f.recommendation}`,
    '',
    ...(f.graphql ? ['GraphQL query:', f.graphql.query, ...(f.graphql.variables ? ['Variables:', f.graphql.variables] : []), ''] : []),
    'Evidence:',
    f.evidence,
    ...(f.curl ? ['', 'Reproduce:', f.curl] : []),
  ].join('\n');
}

export function toJunit(input: ReportInput): string {
  const numbers = findingNumbers(input.findings);
  const cases = junitCases(input);
  const suites = new Map<string, JunitCase[]>();
  for (const c of cases) suites.set(c.suite, [...(suites.get(c.suite) ?? []), c]);
  const time = (durationSeconds(input.scan) ?? 0).toFixed(3);
  const stamp = (input.scan.completed_at ?? input.scan.created_at).replace(/\.\d+Z$/, '').replace(/Z$/, '');
  const count = (list: JunitCase[]) => ({
    tests: list.length,
    failures: list.filter((c) => c.failures.length && !c.skipped).length,
    skipped: list.filter((c) => c.skipped).length,
  });
  const all = count(cases);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="${xml(`${PRODUCT_NAME} API security scan: ${input.api.name}`)}" tests="${all.tests}" failures="${all.failures}" errors="0" skipped="${all.skipped}" time="${time}">`,
  );
  let id = 0;
  for (const [suite, list] of suites) {
    const n = count(list);
    out.push(
      `  <testsuite name="${xml(categoryLabel(suite))}" id="${id}" package="${xml(suite)}" tests="${n.tests}" failures="${n.failures}" errors="0" skipped="${n.skipped}" time="0" timestamp="${xml(stamp)}" hostname="${xml(input.api.base_url)}">`,
    );
    id += 1;
    for (const c of list) {
      out.push(`    <testcase classname="${xml(c.classname)}" name="${xml(c.name)}" time="0">`);
      if (c.skipped) out.push(`      <skipped message="${xml(c.skipped)}"/>`);
      else if (c.failures.length) {
        const worst = c.failures[0]!;
        const message = c.failures.length === 1 ? worst.vulnerability_name : `${worst.vulnerability_name} (+${c.failures.length - 1} more)`;
        const body = c.failures.map((f) => failureBody(f, numbers.get(f.id)!)).join('\n\n----\n\n');
        out.push(`      <failure message="${xml(message)}" type="${xml(worst.severity)}">${xml(body)}</failure>`);
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
