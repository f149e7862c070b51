// The check registry: every check of the scan profile, in run order. Ids are stable and never
// reused (findings are followed across scans by them); the registry test keeps them unique and
// their metadata complete.

import { BKEN_AUTH_CHECKS } from './bken-auth';
import { SEC_MISC_CHECKS } from './sec-misc';
import { cvssScore } from '../cvss';
import type { Check } from './types';

export const CHECKS: readonly Check[] = Object.freeze([...BKEN_AUTH_CHECKS, ...SEC_MISC_CHECKS]);

/** The checks of a scan profile. Both values of the one OWASP profile run every check. */
export function checksForProfile(_profile: string): readonly Check[] {
  return CHECKS;
}

const ID = /^api(10|[1-9])-[a-z0-9]+(-[a-z0-9]+)*$/;

/** What is wrong with a check's metadata (empty when complete). */
export function checkProblems(check: Check): string[] {
  const problems: string[] = [];
  if (!ID.test(check.id)) problems.push(`id "${check.id}" must look like api<N>-words`);
  if (!check.id.startsWith(`api${check.owasp.replace(/^API(\d+):2023$/, '$1')}-`)) problems.push('id does not match the OWASP category');
  if (!/^API(10|[1-9]):2023$/.test(check.owasp)) problems.push(`owasp "${check.owasp}" is not an OWASP API Top 10 2023 category`);
  if (!/^CWE-\d+$/.test(check.cwe)) problems.push(`cwe "${check.cwe}" is malformed`);
  try {
    cvssScore(check.cvss);
  } catch (e) {
    problems.push((e as Error).message);
  }
  for (const [field, value] of [
    ['title', check.title],
    ['description', check.description],
    ['remediation', check.remediation],
  ] as const) {
    if (!value || value.trim().length < 10) problems.push(`${field} is missing or too short`);
  }
  if (!check.references.length || !check.references.every((r) => /^https:\/\//.test(r))) problems.push('references must be https URLs');
  if (!Number.isInteger(check.budget) || check.budget < 0) problems.push('budget must be a whole number of requests');
  if (check.kind === 'active' && check.budget === 0) problems.push('an active check needs a request budget');
  return problems;
}
