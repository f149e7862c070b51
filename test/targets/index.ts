// The Acme Shop test target: a deliberately vulnerable API with one switchable flaw per scanner
// check, and its hardened twin. See docs/test-targets.md.

export { startTarget, type Target, type TargetOAuthClient, type TargetOptions, type TargetUser } from './target';
export { FLAWS, FLAW_IDS, type FlawId, type FlawInfo, onlyFlaws, type OwaspCategory, resolveFlaws, type TargetMode } from './flaws';
export { type RequestFilter, RequestLog, type RequestRecord } from './http';
export { OutboundLog, type OutboundRecord } from './fetcher';
export { SEED, luhnValid } from './db';
export { documentedOperations } from './spec';
export { STANDARD_INTROSPECTION_QUERY } from './graphql';
export { buildPostmanCollection, POSTMAN_FIXTURE_BASE_URL, type PostmanOptions } from './postman';
export { CSRF_COOKIE, CSRF_HEADER, type LoginFilter, type LoginGrant, LoginLog, type LoginRecord, SESSION_COOKIE } from './identity';
