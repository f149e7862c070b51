// The check registry: every check of the scan profile, in run order. Ids are stable and never
// reused (findings are followed across scans by them); the registry test keeps them unique and
// their metadata complete.

import { accountEmailOther, accountPasswordOther } from './api1-object-authorization/account-takeover';
import { bolaCreateSteal, useAfterDelete } from './api1-object-authorization/created-objects';
import { bolaIdSwap, bolaTokenSwap } from './api1-object-authorization/id-swaps';
import { bolaEncodedIdSwap } from './api1-object-authorization/encoded-id-swap';
import { graphqlBola } from './api1-object-authorization/graphql-bola';
import { bolaForgedOwner } from './api1-object-authorization/forged-owner';
import { bolaBodyIdUpdate } from './api1-object-authorization/body-id-update';
import { authBruteForce } from './api2-authentication/brute-force';
import { changeWithoutCurrentPassword } from './api2-authentication/reauthentication';
import { shortCodeBruteForce } from './api2-authentication/short-codes';
import { userEnumeration } from './api2-authentication/user-enumeration';
import { noOrInvalidCredentials } from './api2-authentication/credentials-not-enforced';
import { jwtTampering } from './api2-authentication/jwt-tampering';
import { credentialsInUrl, tokenInResponse } from './api2-authentication/token-exposure';
import { excessiveDataExposure } from './api3-property-authorization/data-exposure';
import { massAssignment } from './api3-property-authorization/mass-assignment';
import { signupMassAssignment } from './api3-property-authorization/signup-privileges';
import { tokenClaims } from './api3-property-authorization/token-claims';
import { algorithmicComplexity } from './api4-resource-consumption/algorithmic-complexity';
import { graphqlBatching } from './api4-resource-consumption/graphql-batching';
import { graphqlDocumentAbuse } from './api4-resource-consumption/graphql-document-abuse';
import { graphqlDepth } from './api4-resource-consumption/graphql-depth';
import { slowOperation } from './api4-resource-consumption/slow-operation';
import { graphqlBatchBruteForce } from './api2-authentication/graphql-batch-brute-force';
import { graphqlUnauthenticated } from './api2-authentication/graphql-unauthenticated';
import { weakCredentials } from './api2-authentication/weak-credentials';
import { graphqlWeakCredentials } from './api2-authentication/graphql-weak-credentials';
import { jwtArgument } from './api2-authentication/jwt-argument';
import { issuedJwtTampering } from './api2-authentication/issued-jwt';
import { confirmationMismatch } from './api2-authentication/confirmation-mismatch';
import { sizeLimits, slowOversize } from './api4-resource-consumption/input-size';
import { pageSizeAbuse } from './api4-resource-consumption/pagination';
import { noRateLimit } from './api4-resource-consumption/rate-limit';
import { accountDeleteOther } from './api5-function-authorization/account-deletion';
import { adminPathInsertion } from './api5-function-authorization/admin-paths';
import { unauthenticatedReset } from './api5-function-authorization/destructive-routes';
import { privilegeHeaders } from './api5-function-authorization/privilege-headers';
import { declaredPrivilegeHeader } from './api5-function-authorization/declared-privilege-header';
import { userDirectory } from './api5-function-authorization/user-directory';
import { bflaMethodSwap, bflaPrivilegedOperation, bflaRoleOperation } from './api5-function-authorization/privileged-operations';
import { graphqlBfla } from './api5-function-authorization/graphql-bfla';
import { flowNotThrottled } from './api6-business-flows/flow-throttling';
import { outOfRangeValues } from './api6-business-flows/out-of-range-values';
import { raceOneTime } from './api6-business-flows/race-condition';
import { captchaAnswerExposed } from './api6-business-flows/captcha-answer';
import { ssrfCallback, ssrfInternal } from './api7-ssrf/ssrf';
import { graphqlSsrf } from './api7-ssrf/graphql-ssrf';
import { commandInjection } from './api8-misconfiguration/command-injection';
import { graphqlCommandInjection, graphqlNosqlInjection, graphqlSqlInjection } from './api8-misconfiguration/graphql-injection';
import { corsPolicy } from './api8-misconfiguration/cors';
import { jsonpCallback } from './api8-misconfiguration/jsonp';
import { leakOnFailedCreate } from './api8-misconfiguration/leak-on-failed-create';
import { nosqlInjection } from './api8-misconfiguration/nosql-injection';
import { argumentInjection } from './api8-misconfiguration/argument-injection';
import { ldapInjection, xpathInjection } from './api8-misconfiguration/filter-injection';
import { sqlStatement } from './api8-misconfiguration/sql-statement';
import { pathTraversal } from './api8-misconfiguration/path-traversal';
import { scriptContent } from './api8-misconfiguration/script-content';
import { storedContentSweep } from './api8-misconfiguration/stored-content-sweep';
import { sqlFilterBypass } from './api8-misconfiguration/sql-filter-bypass';
import { templateInjection } from './api8-misconfiguration/template-injection';
import { securityHeaders } from './api8-misconfiguration/security-headers';
import { sqlInjection } from './api8-misconfiguration/sql-injection';
import { plainHttp, traceEnabled } from './api8-misconfiguration/transport';
import { verboseErrors } from './api8-misconfiguration/verbose-errors';
import { debugConsole } from './api8-misconfiguration/debug-console';
import { followsRedirects, openRedirect, unsignedWebhook } from './api10-unsafe-consumption/redirects-and-webhooks';
import { debugEndpoints, graphqlIntrospection } from './api9-inventory/debug-endpoints';
import { graphqlDebugErrors } from './api8-misconfiguration/graphql-debug-errors';
import { graphqlCommandInjectionProvenPassword } from './api8-misconfiguration/graphql-command-injection-proven-password';
import { graphqlFieldSuggestions } from './api8-misconfiguration/graphql-field-suggestions';
import { graphqlIde } from './api8-misconfiguration/graphql-ide';
import { graphqlGetMutation } from './api8-misconfiguration/graphql-get-mutation';
import { undocumentedEndpoints } from './api9-inventory/discovery';
import { exposedDocs } from './api9-inventory/exposed-docs';
import { oldVersions } from './api9-inventory/old-versions';
import { undocumentedBehaviour } from './api9-inventory/undocumented-behaviour';
import { exposedFiles } from './api9-inventory/exposed-files';
import { graphqlEngine } from './api9-inventory/graphql-engine';
import { graphqlStoredMarkup } from './api8-misconfiguration/graphql-stored-markup';
import { uploadSize } from './api4-resource-consumption/upload-size';
import { uploadType } from './api8-misconfiguration/upload-type';
import { xmlExternalEntities } from './api8-misconfiguration/xml-entities';
import { undocumentedXml } from './api9-inventory/undocumented-xml';
import { cvssScore } from '../cvss';
import type { Check } from './types';

export const CHECKS: readonly Check[] = Object.freeze([
  // In OWASP order (one folder per category), except that the stateful and account checks, which
  // change data, run last.
  bolaTokenSwap,
  bolaIdSwap,
  bolaEncodedIdSwap,
  bolaCreateSteal,
  useAfterDelete,
  graphqlBola,
  bolaForgedOwner,
  bolaBodyIdUpdate,
  noOrInvalidCredentials,
  graphqlUnauthenticated,
  jwtTampering,
  jwtArgument,
  issuedJwtTampering,
  tokenInResponse,
  credentialsInUrl,
  // Before the login burst (a `last` check), which may lock accounts or trip a per-client limit.
  userEnumeration,
  authBruteForce,
  shortCodeBruteForce,
  graphqlBatchBruteForce,
  weakCredentials,
  graphqlWeakCredentials,
  confirmationMismatch,
  massAssignment,
  excessiveDataExposure,
  tokenClaims,
  pageSizeAbuse,
  noRateLimit,
  sizeLimits,
  slowOversize,
  algorithmicComplexity,
  graphqlDepth,
  graphqlBatching,
  graphqlDocumentAbuse,
  slowOperation,
  uploadSize,
  bflaPrivilegedOperation,
  bflaRoleOperation,
  bflaMethodSwap,
  graphqlBfla,
  adminPathInsertion,
  privilegeHeaders,
  declaredPrivilegeHeader,
  userDirectory,
  raceOneTime,
  flowNotThrottled,
  captchaAnswerExposed,
  ssrfCallback,
  ssrfInternal,
  graphqlSsrf,
  corsPolicy,
  securityHeaders,
  verboseErrors,
  sqlInjection,
  nosqlInjection,
  commandInjection,
  graphqlSqlInjection,
  graphqlNosqlInjection,
  graphqlCommandInjection,
  pathTraversal,
  scriptContent,
  storedContentSweep,
  sqlFilterBypass,
  templateInjection,
  jsonpCallback,
  traceEnabled,
  plainHttp,
  ldapInjection,
  xpathInjection,
  argumentInjection,
  sqlStatement,
  xmlExternalEntities,
  uploadType,
  oldVersions,
  exposedDocs,
  debugEndpoints,
  graphqlIntrospection,
  graphqlFieldSuggestions,
  graphqlIde,
  graphqlDebugErrors,
  graphqlGetMutation,
  graphqlStoredMarkup,
  graphqlCommandInjectionProvenPassword,
  undocumentedEndpoints,
  debugConsole,
  undocumentedBehaviour,
  exposedFiles,
  graphqlEngine,
  undocumentedXml,
  openRedirect,
  followsRedirects,
  unsignedWebhook,
  outOfRangeValues,
  leakOnFailedCreate,
  accountPasswordOther,
  accountEmailOther,
  changeWithoutCurrentPassword,
  accountDeleteOther,
  signupMassAssignment,
  // Wipes the API's data: runs alone after every other check (`destructive`).
  unauthenticatedReset,
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
