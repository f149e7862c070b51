// The check registry: every check of the scan profile, in run order. Ids are stable and never
// reused (findings are followed across scans by them); the registry test keeps them unique and
// their metadata complete.

import { ACCOUNT_CHECKS } from './accounts';
import { BFLA_CHECKS } from './bfla';
import { BKEN_AUTH_CHECKS } from './bken-auth';
import { BOLA_CHECKS } from './bola';
import { BOPLA_CHECKS } from './bopla';
import { SEC_MISC_CHECKS } from './sec-misc';
import { SEC_MISC_ERROR_CHECKS } from './sec-misc-errors';
import { SEC_MISC_INJECTION_CHECKS } from './sec-misc-injection';
import { SEC_MISC_TRANSPORT_CHECKS } from './sec-misc-transport';
import { IIM_CHECKS } from './iim';
import { UCAPI_CHECKS } from './ucapi';
import { SSRF_CHECKS } from './ssrf';
import { UABF_CHECKS } from './uabf';
import { URC_CHECKS } from './urc';
import { STATEFUL_CHECKS } from './stateful';
import { cvssScore } from '../cvss';
import type { Check } from './types';

export const CHECKS: readonly Check[] = Object.freeze([
  // In OWASP order: API1 ... API10, then the stateful and account checks that span several categories.
  ...BOLA_CHECKS,
  ...BKEN_AUTH_CHECKS,
  ...BOPLA_CHECKS,
  ...URC_CHECKS,
  ...BFLA_CHECKS,
  ...UABF_CHECKS,
  ...SSRF_CHECKS,
  ...SEC_MISC_CHECKS,
  ...SEC_MISC_ERROR_CHECKS,
  ...SEC_MISC_INJECTION_CHECKS,
  ...SEC_MISC_TRANSPORT_CHECKS,
  ...IIM_CHECKS,
  ...UCAPI_CHECKS,
  ...STATEFUL_CHECKS,
  ...ACCOUNT_CHECKS,
]);

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
