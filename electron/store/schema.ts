// Row types of every table, as Kysely sees them. Times are ISO-8601 UTC text; booleans are 0/1;
// JSON columns are text holding JSON.

import type { ColumnType, Generated } from 'kysely';

export interface UsersTable {
  id: string;
  email: string;
  username: string;
  first_name: string;
  last_name: string;
  /** Null for accounts that only sign in with an identity provider. */
  password_hash: string | null;
  profile_picture: string | null;
  created_at: string;
  updated_at: string;
  totp_enabled: WithDefault<number>;
  /** The last TOTP time step accepted: a code is never accepted twice. */
  totp_last_step: WithDefault<number>;
}

/** One failed (or in-flight) attempt counted by a throttle; `key` is "kind:value", `at` epoch ms. */
export interface ThrottleFailuresTable {
  id: Generated<number>;
  key: string;
  at: number;
}

export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

export interface MfaChallengesTable {
  id: string;
  user_id: string;
  token_hash: string;
  /** How the first factor was passed: password, google... */
  method: string;
  client: string | null;
  ip: string | null;
  created_at: string;
  expires_at: string;
}

export interface IdentitiesTable {
  user_id: string;
  issuer: string;
  subject: string;
  created_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  last_used_at: string;
  /** Absolute end of the session, whatever its use. */
  expires_at: string;
  idle_timeout_minutes: number;
  client: string | null;
  ip: string | null;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface UserPreferencesTable {
  user_id: string;
  /** JSON of shared Preferences. */
  data: string;
  updated_at: string;
}

export interface UserProfilesTable {
  user_id: string;
  phone: string;
  company: string;
  position: string;
  timezone: string;
  avatar_url: string;
  bio: string;
  website_url: string;
  location: string;
  updated_at: string;
}

export interface ApisTable {
  id: string;
  owner_id: string;
  name: string;
  base_url: string;
  status: string;
  source_format: string;
  source_filename: string | null;
  spec_version: string | null;
  /** JSON: the API's security schemes and default security requirement, kept for the scanner. */
  security_schemes: string;
  created_at: string;
  updated_at: string;
  /** Bytes of this API's definition and endpoints as the quotas count them (store/quotas.ts). */
  stored_bytes: WithDefault<number>;
}

export interface EndpointsTable {
  id: string;
  api_id: string;
  position: number;
  method: string;
  path: string;
  summary: string;
  operation_id: string | null;
  /** JSON arrays / objects. */
  tags: string;
  parameters: string;
  request_body: string;
  responses: string;
  security: string;
  /** JSON GraphqlOperation of a GraphQL operation; null for REST endpoints (migration 014). */
  graphql: string | null;
  created_at: string;
}

export interface EndpointFlagsTable {
  endpoint_id: string;
  flag: string;
}

export interface ScansTable {
  id: string;
  api_id: string;
  user_id: string;
  profile: string;
  status: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  failure_reason: string | null;
  progress_done: number;
  progress_total: number;
  requests_sent: number;
  score: number | null;
  /** JSON: engine options of this scan (rps, concurrency, lower-privilege key...). */
  config: string;
  /** Where the two keys are kept in the SecretStore; never the keys themselves. */
  secret_ref: string | null;
  /** JSON: errors, skipped checks and other run notes. */
  notes: string;
  /** Insertion order (migration 010): the tie-break of scans created in the same millisecond. */
  seq: Generated<number>;
  /** The node running the scan (config.nodeId) and until when its lease holds (migration 012; the database's clock). */
  owner_node: WithDefault<string | null>;
  lease_until: WithDefault<string | null>;
  /** What a running scan checks now (the check's title, "METHOD /path"), for the details on every node. */
  current_check: WithDefault<string | null>;
  current_endpoint: WithDefault<string | null>;
  /** JSON: the coverage ledger of a finished scan (migration 015; shared/coverage.ts ScanCoverage). */
  coverage: WithDefault<string | null>;
}

/** The HAR of a finished scan's requests (migration 016; electron/scanner/traffic.ts). */
export interface ScanTrafficTable {
  scan_id: string;
  entries: number;
  /** Older requests left out to stay within the bounds. */
  dropped: number;
  /** The HAR's size before compression. */
  bytes: number;
  har_gzip: Buffer;
  created_at: string;
}

export interface FindingsTable {
  id: string;
  scan_id: string;
  api_id: string;
  check_id: string;
  fingerprint: string;
  vulnerability_name: string;
  severity: string;
  confidence: string;
  owasp: string;
  cwe: string | null;
  description: string;
  recommendation: string;
  cvss_vector: string;
  cvss_score: number;
  method: string;
  path: string;
  parameter: string | null;
  evidence: string;
  curl: string;
  references: string;
  trend: string;
  /** JSON FindingGraphql of a finding about a GraphQL API; null otherwise (migration 014). */
  graphql: string | null;
  /** JSON FindingProof: what a replay of its curl text must show again; null for findings from before migration 018. */
  proof: string | null;
  created_at: string;
  /** 1 while a triage mark (not open, not expired) covers the finding: it leaves counts and scores. */
  suppressed: WithDefault<number>;
}

/** A triage mark on an API's findings with one fingerprint (issue 17). */
export interface FindingTriageTable {
  api_id: string;
  fingerprint: string;
  state: string;
  reason: string;
  expires_at: string | null;
  set_by: string | null;
  set_at: string;
}

/** A finding's re-tests (issue 29): `running` while one runs (one per API), then its outcome. */
export interface FindingRetestsTable {
  id: string;
  finding_id: string;
  api_id: string;
  fingerprint: string;
  user_id: string | null;
  /** running | reproduced | not_reproduced | failed */
  outcome: string;
  started_at: string;
  finished_at: string | null;
  duration_ms: WithDefault<number>;
  evidence: string | null;
  curl: string | null;
  /** JSON array of "METHOD url → status" lines. */
  sent: WithDefault<string>;
  requests_sent: WithDefault<number>;
  reason: string | null;
}

export interface IdentitySetupsTable {
  id: string;
  api_id: string;
  user_id: string;
  /** SHA-256 of the identities with their secrets replaced: one row per recipe. */
  fingerprint: string;
  /** JSON: { identities: IdentitySummary[], signup } (no secret). */
  summary: string;
  /** "scan:setup:<id>": the identities with their secrets, in the SecretStore. */
  secret_ref: string;
  /** The scan that last signed in with it. */
  scan_id: string | null;
  created_at: string;
  worked_at: string;
}

export interface SchedulesTable {
  id: string;
  api_id: string;
  user_id: string;
  frequency: string;
  is_enabled: number;
  next_run_at: string | null;
  last_run_at: string | null;
  created_at: string;
  updated_at: string;
  /** The wall-clock time and weekday/day runs keep (when the schedule was saved). */
  anchor_at: WithDefault<string | null>;
  /** The owner's time zone the runs are computed in (IANA or Etc/GMT±N). */
  zone: WithDefault<string>;
  last_scan_id: WithDefault<string | null>;
  /** Why the last due run could not start (keys gone, no earlier scan...), or null. */
  last_error: WithDefault<string | null>;
}

export interface SharesTable {
  api_id: string;
  user_id: string;
  permission: string;
  created_at: string;
  updated_at: string;
}

export interface SecretsTable {
  /** "scan:<scan id>". */
  ref: string;
  /** "keychain" (the value lives in the OS keychain) or "aes-256-gcm" (ciphertext here). */
  backend: string;
  ciphertext: string | null;
  created_at: string;
}

export interface LoginEventsTable {
  id: Generated<number>;
  user_id: string;
  created_at: string;
  client: string | null;
  ip: string | null;
  method: string;
}

export interface Database {
  users: UsersTable;
  identities: IdentitiesTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  user_preferences: UserPreferencesTable;
  user_profiles: UserProfilesTable;
  apis: ApisTable;
  endpoints: EndpointsTable;
  endpoint_flags: EndpointFlagsTable;
  scans: ScansTable;
  scan_traffic: ScanTrafficTable;
  findings: FindingsTable;
  finding_triage: FindingTriageTable;
  finding_retests: FindingRetestsTable;
  identity_setups: IdentitySetupsTable;
  schedules: SchedulesTable;
  shares: SharesTable;
  login_events: LoginEventsTable;
  secrets: SecretsTable;
  recovery_codes: RecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
  throttle_failures: ThrottleFailuresTable;
}

/** Helper for columns Kysely should treat as optional on insert. */
export type WithDefault<T> = ColumnType<T, T | undefined, T>;
