// The groups of checks the check tests scan with (the registry itself is one ordered list).

import { accountDeleteOther } from '../../electron/scanner/checks/api5-function-authorization/account-deletion';
import { accountEmailOther, accountPasswordOther } from '../../electron/scanner/checks/api1-object-authorization/account-takeover';
import { bolaCreateSteal, useAfterDelete } from '../../electron/scanner/checks/api1-object-authorization/created-objects';
import { bolaIdSwap, bolaTokenSwap } from '../../electron/scanner/checks/api1-object-authorization/id-swaps';
import { bolaEncodedIdSwap } from '../../electron/scanner/checks/api1-object-authorization/encoded-id-swap';
import { tokenClaims } from '../../electron/scanner/checks/api3-property-authorization/token-claims';
import { unauthenticatedReset } from '../../electron/scanner/checks/api5-function-authorization/destructive-routes';
import { authBruteForce } from '../../electron/scanner/checks/api2-authentication/brute-force';
import { changeWithoutCurrentPassword } from '../../electron/scanner/checks/api2-authentication/reauthentication';
import { shortCodeBruteForce } from '../../electron/scanner/checks/api2-authentication/short-codes';
import { userEnumeration } from '../../electron/scanner/checks/api2-authentication/user-enumeration';
import { noOrInvalidCredentials } from '../../electron/scanner/checks/api2-authentication/credentials-not-enforced';
import { jwtTampering } from '../../electron/scanner/checks/api2-authentication/jwt-tampering';
import { credentialsInUrl, tokenInResponse } from '../../electron/scanner/checks/api2-authentication/token-exposure';
import { excessiveDataExposure } from '../../electron/scanner/checks/api3-property-authorization/data-exposure';
import { massAssignment } from '../../electron/scanner/checks/api3-property-authorization/mass-assignment';
import { signupMassAssignment } from '../../electron/scanner/checks/api3-property-authorization/signup-privileges';
import { adminPathInsertion } from '../../electron/scanner/checks/api5-function-authorization/admin-paths';
import { bflaMethodSwap, bflaPrivilegedOperation, bflaRoleOperation } from '../../electron/scanner/checks/api5-function-authorization/privileged-operations';
import { sizeLimits, slowOversize } from '../../electron/scanner/checks/api4-resource-consumption/input-size';
import { pageSizeAbuse } from '../../electron/scanner/checks/api4-resource-consumption/pagination';
import { noRateLimit } from '../../electron/scanner/checks/api4-resource-consumption/rate-limit';
import { flowNotThrottled } from '../../electron/scanner/checks/api6-business-flows/flow-throttling';
import { ssrfCallback, ssrfInternal } from '../../electron/scanner/checks/api7-ssrf/ssrf';
import { commandInjection } from '../../electron/scanner/checks/api8-misconfiguration/command-injection';
import { nosqlInjection } from '../../electron/scanner/checks/api8-misconfiguration/nosql-injection';
import { pathTraversal } from '../../electron/scanner/checks/api8-misconfiguration/path-traversal';
import { sqlInjection } from '../../electron/scanner/checks/api8-misconfiguration/sql-injection';
import { plainHttp, traceEnabled } from '../../electron/scanner/checks/api8-misconfiguration/transport';
import { verboseErrors } from '../../electron/scanner/checks/api8-misconfiguration/verbose-errors';
import { followsRedirects, openRedirect, unsignedWebhook } from '../../electron/scanner/checks/api10-unsafe-consumption/redirects-and-webhooks';
import { debugEndpoints, graphqlIntrospection } from '../../electron/scanner/checks/api9-inventory/debug-endpoints';
import { exposedDocs } from '../../electron/scanner/checks/api9-inventory/exposed-docs';
import { oldVersions } from '../../electron/scanner/checks/api9-inventory/old-versions';
import { undocumentedBehaviour } from '../../electron/scanner/checks/api9-inventory/undocumented-behaviour';
import type { Check } from '../../electron/scanner/checks/types';
import { leakOnFailedCreate } from '../../electron/scanner/checks/api8-misconfiguration/leak-on-failed-create';

export const BOLA_CHECKS = [bolaTokenSwap, bolaIdSwap, bolaEncodedIdSwap, bolaCreateSteal, useAfterDelete];
export const TOKEN_CHECKS = [jwtTampering, tokenInResponse, credentialsInUrl, authBruteForce];
export const AUTH_CHECKS = [noOrInvalidCredentials, ...TOKEN_CHECKS];
export const BOPLA_CHECKS = [massAssignment, excessiveDataExposure, tokenClaims];
export const BFLA_CHECKS = [bflaPrivilegedOperation, bflaRoleOperation, bflaMethodSwap, adminPathInsertion, unauthenticatedReset];
export const STATEFUL_CHECKS = [leakOnFailedCreate];
/** The API2 checks on the scan's own accounts: login user enumeration, short-code guessing, changes without the current password. */
export const API2_ACCOUNT_CHECKS = [userEnumeration, shortCodeBruteForce, changeWithoutCurrentPassword];
export const ACCOUNT_CHECKS = [accountPasswordOther, accountEmailOther, accountDeleteOther, signupMassAssignment];
/** The checks that work from input points and the API's surface (API4, API6-API10). */
export const INPUT_CHECKS: Check[] = [
  pageSizeAbuse,
  noRateLimit,
  sizeLimits,
  slowOversize,
  flowNotThrottled,
  ssrfCallback,
  ssrfInternal,
  verboseErrors,
  sqlInjection,
  nosqlInjection,
  commandInjection,
  pathTraversal,
  traceEnabled,
  plainHttp,
  oldVersions,
  exposedDocs,
  debugEndpoints,
  graphqlIntrospection,
  undocumentedBehaviour,
  openRedirect,
  followsRedirects,
  unsignedWebhook,
];
