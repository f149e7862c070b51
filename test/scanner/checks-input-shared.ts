// Shared by the input-check tests: the checks of this part of issue #5.

import { IIM_CHECKS } from '../../electron/scanner/checks/iim';
import { SEC_MISC_ERROR_CHECKS } from '../../electron/scanner/checks/sec-misc-errors';
import { SEC_MISC_INJECTION_CHECKS } from '../../electron/scanner/checks/sec-misc-injection';
import { SEC_MISC_TRANSPORT_CHECKS } from '../../electron/scanner/checks/sec-misc-transport';
import { SSRF_CHECKS } from '../../electron/scanner/checks/ssrf';
import type { Check } from '../../electron/scanner/checks/types';
import { UABF_CHECKS } from '../../electron/scanner/checks/uabf';
import { UCAPI_CHECKS } from '../../electron/scanner/checks/ucapi';
import { URC_CHECKS } from '../../electron/scanner/checks/urc';

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


export const strongEnough = (confidence: string) => confidence === 'high' || confidence === 'medium';
