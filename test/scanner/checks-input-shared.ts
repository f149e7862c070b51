// Shared by the input-check tests: the checks of this part of issue #5 and the budget assertion.

import { expect } from 'vitest';
import { IIM_CHECKS } from '../../electron/scanner/checks/iim';
import { SEC_MISC_ERROR_CHECKS } from '../../electron/scanner/checks/sec-misc-errors';
import { SEC_MISC_INJECTION_CHECKS } from '../../electron/scanner/checks/sec-misc-injection';
import { SEC_MISC_TRANSPORT_CHECKS } from '../../electron/scanner/checks/sec-misc-transport';
import { SSRF_CHECKS } from '../../electron/scanner/checks/ssrf';
import type { Check } from '../../electron/scanner/checks/types';
import { UABF_CHECKS } from '../../electron/scanner/checks/uabf';
import { UCAPI_CHECKS } from '../../electron/scanner/checks/ucapi';
import { URC_CHECKS } from '../../electron/scanner/checks/urc';
import type { CheckScan } from '../helpers/check-scan';

export const INPUT_CHECKS: Check[] = [
  ...URC_CHECKS,
  ...UABF_CHECKS,
  ...SSRF_CHECKS,
  ...SEC_MISC_ERROR_CHECKS,
  ...SEC_MISC_INJECTION_CHECKS,
  ...SEC_MISC_TRANSPORT_CHECKS,
  ...IIM_CHECKS,
  ...UCAPI_CHECKS,
];

/** requests_by_check of every check that ran: at most its budget per endpoint (endpoint scope) or per scan (API scope). */
export function expectWithinBudgets(s: CheckScan): void {
  for (const run of s.outcome.checksRun) {
    const check = INPUT_CHECKS.find((c) => c.id === run.check_id);
    if (!check) continue;
    const limit = check.scope === 'endpoint' ? check.budget * run.endpoints.length : check.budget;
    expect(s.outcome.requestsByCheck[check.id] ?? 0, check.id).toBeLessThanOrEqual(limit);
  }
}

export const strongEnough = (confidence: string) => confidence === 'high' || confidence === 'medium';
