// The /api contract: entities of spec section 3 and the request/response of every call of spec
// section 7 (plus the routes this product adds), used by the core and the renderer alike.

import type { CoverageReason, CoverageSummary, ScanCoverage } from './coverage';
import type { IdentityConfig, IdentityInput, IdentityReport, PlacementConfig, SignupSetting, WritesSetting } from './identities';
import type { WritePolicyData } from './write-policy';
import type {
  ApiPermission,
  Confidence,
  Flag,
  PdfReportType,
  Preferences,
  ReportType,
  ScanStatus,
  ScheduleFrequency,
  Severity,
  RetestOutcome,
  SharePermission,
  TriageMarkState,
  TriageState,
} from './constants';
import type { SeverityLevel } from './severity';
import type { ValidationError } from './validation';

/** Every JSON response: `{ success, message, data?, errors? }`. */
export interface Envelope<T = undefined> {
  success: boolean;
  message: string;
  data?: T;
  errors?: ValidationError[];
}

// ---------------------------------------------------------------- entities (spec section 3)

export interface User {
  id: string;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  profilePicture: string | null;
}

export interface ExtendedProfile {
  phone: string;
  company: string;
  position: string;
  timezone: string;
  avatar_url: string;
  bio: string;
  website_url: string;
  location: string;
}

export interface PlatformStats {
  vulnerabilitiesFound: number;
  apisSecured: number;
  scansToday: number;
}

export interface DashboardOverview {
  total_apis: number;
  total_scans: number;
  total_vulnerabilities: number;
  critical_vulnerabilities: number;
  scan_activity_weekly: { day: string; scans: number; vulnerabilities: number }[];
  /** Ranked by worst level (among the latest scans' findings not set aside), then count; `severity` is the worst's band. */
  top_vuln_types: { type: string; count: number; severity: Severity; /** Absent from servers before issue 31. */ level?: SeverityLevel }[];
  recent_scans: { id: string; apiName: string; date: string; status: ScanStatus; vulnerabilities: number }[];
}

export interface ApiSummary {
  id: string;
  name: string;
  base_url: string;
  created_at: string;
  imported_on: string;
  permission: ApiPermission;
  owner_name: string;
  /** "Running" while a scan runs, else the last scan's status in words ("Completed", "Failed"), or "Ready". */
  scanStatus: string;
  /** ISO time of the last completed scan, or "Never". */
  lastScanned: string;
  vulnerabilitiesFound: number;
  /** "Active" counts as active. */
  status: string;
  /** Where the API came from: openapi-3.0, openapi-3.1, swagger-2.0, postman-2.0, postman-2.1, har-1.2, graphql-sdl, graphql-introspection, manual. */
  source_format: string;
  endpoint_count: number;
  /** The last finished scan's reason when it failed or was cancelled; null (or absent) otherwise. */
  lastFailureReason?: string | null;
  /** The owner's enabled schedule of the API (owners only): when it runs and its next run. */
  schedule?: (Pick<Schedule, 'frequency' | 'time_of_day' | 'time_zone' | 'weekday' | 'day_of_month' | 'next_run_at'>) | null;
}

/**
 * A JSON Schema object as the importer stores it: local $refs inlined, a cycle cut where it closes
 * with `{ "x-circular": "<ref>" }`, external $refs left as `{ "x-unresolved-ref": "<ref>" }`.
 */
export type JsonSchema = Record<string, unknown>;

export interface EndpointParameter {
  name: string;
  /** `argument`: an argument of a GraphQL operation, sent as the variable of the same name. */
  in: 'path' | 'query' | 'header' | 'cookie' | 'argument';
  required: boolean;
  schema: JsonSchema | null;
  example?: unknown;
}

export interface RequestBodySpec {
  required: boolean;
  /** The preferred media type: JSON when offered, else the first. */
  content_type: string;
  schema: JsonSchema | null;
  example?: unknown;
}

export interface ResponseSpec {
  description: string;
  content_type: string | null;
  schema: JsonSchema | null;
}

/** OpenAPI semantics: the list is OR, the names inside one requirement are AND; [] means anonymous. */
export type SecurityRequirement = Record<string, string[]>;

export type OAuth2Grant = 'client_credentials' | 'password' | 'authorization_code' | 'implicit';

export type SecurityScheme =
  | { type: 'http'; scheme: string; bearerFormat?: string }
  | {
      type: 'apiKey';
      in: 'header' | 'query' | 'cookie';
      name: string;
      /**
       * How the value is written when it is not the bare credential, with `{token}` where it goes
       * ("Token {token}"): inferred from Postman and HAR requests; specs never set it.
       */
      template?: string;
    }
  | {
      type: 'oauth2';
      /** The token endpoint of the client-credentials or password flow, when the spec declares one. */
      tokenUrl?: string;
      /** The grants the spec declares (OpenAPI 3 flow names mapped to RFC 6749 grant names). */
      grants?: OAuth2Grant[];
    }
  | { type: 'openIdConnect'; openIdConnectUrl?: string };

/** An API's security schemes and its default requirement, kept for the scanner. */
export interface ApiSecurity {
  schemes: Record<string, SecurityScheme>;
  default: SecurityRequirement[];
}

/**
 * A GraphQL operation: one root field of the schema, imported as an endpoint of its own (method POST,
 * the GraphQL endpoint's path). Its arguments are the endpoint's `argument` parameters; its request body
 * is `{ query: document, variables }`.
 */
export interface GraphqlOperation {
  kind: 'query' | 'mutation' | 'subscription';
  /** The schema's name of the root type ("Query", or a custom name like "RootQuery"). */
  root_type: string;
  /** The root field ("pastes"): the summary names the operation "Query.pastes". */
  field: string;
  /** A valid operation selecting the field, each argument passed as the variable of its name, scalar sub-fields to a bounded depth. */
  document: string;
  /** The GraphQL type of each argument's variable ("ID!", "[String!]"), in the field's order. */
  variable_types: Record<string, string>;
  /** The field's type as the schema writes it ("Paste", "[User!]!"). */
  returns: string;
  /**
   * Fields without required arguments that lead from the returned object type back to itself
   * (["owner", "pastes"]): nesting them makes queries as deep as wanted. null when the type has no cycle.
   */
  cycle: string[] | null;
}

export interface Endpoint {
  id: string;
  method: string;
  path: string;
  summary: string;
  flags: Flag[];
  operation_id: string | null;
  tags: string[];
  parameters: EndpointParameter[];
  request_body: RequestBodySpec | null;
  /** By status code ("200", "4XX", "default"). */
  responses: Record<string, ResponseSpec>;
  /** null: the API's default applies. */
  security: SecurityRequirement[] | null;
  /** Set on the operations of a GraphQL API; absent or null for REST endpoints. */
  graphql?: GraphqlOperation | null;
  /** Set on routes a scan found beyond the API description (robots.txt, a script, a link): where it was found. Never stored. */
  discovered?: string | null;
}

export interface ImportWarning {
  /** Where: a JSON pointer ("/paths/~1pets/get") or "line N". */
  location: string;
  message: string;
}

export interface ScanSummary {
  id: string;
  api_id: string;
  status: ScanStatus;
  scan_profile: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  vulnerabilities: number;
  score: number | null;
  failure_reason: string | null;
}

export interface Finding {
  id: string;
  check_id: string;
  vulnerability_name: string;
  severity: Severity;
  confidence: Confidence;
  owasp: string;
  cwe: string | null;
  description: string;
  recommendation: string;
  cvss_score: number;
  cvss_vector: string;
  method: string;
  path: string;
  parameter: string | null;
  /** Starts with "Method: ..." and "Path: ..." lines, then the exchanges that prove the finding. */
  evidence: string;
  curl: string;
  references: string[];
  fingerprint: string;
  /** Against the previous scan of the same API. */
  trend: 'new' | 'recurring';
  /** The triage mark that follows this finding's fingerprint on its API; null when nobody set one. */
  triage: FindingTriage | null;
  /** A finding about a GraphQL API: the operation and the query and variables that reproduce it; absent or null otherwise. */
  graphql?: FindingGraphql | null;
  /** Its latest finished re-test (issue 29); absent or null when nobody re-tested it. */
  retest?: FindingRetestSummary | null;
  /** What shows the finding again when its curl text is replayed (issue 29); null for findings from before it was kept. */
  proof?: FindingProof | null;
}

/**
 * The answer that proves a finding, as a replay of its `curl` text must show it again: which request,
 * which status, and a text the check chose that any instance of the API answers alike (a value the attack
 * sent and the answer echoes, a field or message the technique looks for), never one that differs
 * between instances (an id, a time, a generated value).
 */
export interface FindingProof {
  /** The curl text's request that proves it: its number in a step list ("# 2. …"); 1 for a single command. */
  step: number;
  /** The statuses that show the flaw (the scan's first); any of them does. */
  status: number[];
  /** Text the proving answer holds (body or a header value); null when its status alone proves the finding. */
  marker: string | null;
  /**
   * Out of band: the variable of the curl text that holds a listener's address (LISTENER_URL); the flaw shows
   * when that listener receives a request from the API. Absent when the answer alone shows it.
   */
  listener?: string;
}

/** A finding's latest re-test, as scan details carry it. */
export interface FindingRetestSummary {
  outcome: RetestOutcome;
  /** When it finished (ISO time). */
  at: string;
  /** The user name of whoever ran it; null when that account is gone. */
  by: string | null;
}

/** One re-test of a finding: POST /api/findings/retest answers it, GET /api/findings/retests lists them. */
export interface FindingRetest extends FindingRetestSummary {
  id: string;
  finding_id: string;
  fingerprint: string;
  /** When it started (ISO time). */
  started_at: string;
  duration_ms: number;
  /** Reproduced: the new evidence and curl (redacted as findings are); otherwise null. */
  evidence: string | null;
  curl: string | null;
  /** What it sent, the last requests first to last: "GET https://host/path → 200" (secrets redacted). */
  sent: string[];
  requests_sent: number;
  /** Failed: why it could not run; not reproduced: what the run noted (a check skipped, a route not reached). */
  reason: string | null;
}

export interface RetestRequest {
  finding_id: string;
}

export interface RetestResponse {
  retest: FindingRetest;
}

export interface RetestHistoryResponse {
  finding_id: string;
  retests: FindingRetest[];
}

export interface CloseFixedRequest {
  finding_id: string;
}

/**
 * A finding as the scan page's list reads it: everything but its long texts (description, fix,
 * evidence, curl, references, CVSS vector, GraphQL query, replay proof). A 10,000-finding scan is about a third of
 * the bytes; the page reads the whole finding (POST /api/scan/finding) when it is opened.
 */
export type FindingBrief = Omit<Finding, 'description' | 'recommendation' | 'evidence' | 'curl' | 'references' | 'cvss_vector' | 'graphql' | 'proof'> & {
  graphql?: Pick<FindingGraphql, 'operation'> | null;
};

/** The GraphQL request behind a finding, keys redacted. */
export interface FindingGraphql {
  /** "Query.loan", "Mutation.login"; null for an API-wide finding (introspection, batching). */
  operation: string | null;
  /** The query document sent (for a batch, the first operation's, with `batch` saying how many). */
  query: string;
  /** The variables as indented JSON; null when none were sent. */
  variables: string | null;
  /** How many operations the request carried when it was an array batch; null otherwise. */
  batch: number | null;
}

/** Who set a finding aside (or opened it again), why, and until when. */
export interface FindingTriage {
  state: TriageMarkState;
  reason: string;
  /** An accepted risk's end (ISO time); the finding counts again from then on. */
  expires_at: string | null;
  /** The user name of whoever set it; null when that account is gone or the mark expired by itself. */
  set_by: string | null;
  set_at: string;
}

/** GET /api/findings/triage/export: every mark of an API, for git and `portcullis scan --baseline`. */
export interface TriageExport {
  format: 'portcullis-triage';
  version: 1;
  api: { id: string; name: string };
  exported_at: string;
  triage: ({ fingerprint: string } & FindingTriage)[];
}

export interface TriageRequest {
  finding_id: string;
  state: TriageState;
  reason?: string;
  /** Only for accepted_risk: a future date (YYYY-MM-DD, end of that day UTC) or ISO time. */
  expires_at?: string | null;
}

export interface SkippedCheck {
  check_id: string;
  title: string;
  reason: string;
  /** The check's OWASP category ("API1:2023"). */
  owasp?: string;
  /** The reason as one of the coverage reasons (shared/coverage.ts); absent on scans before issue 26. */
  code?: CoverageReason;
}

/** What a running scan is doing now: the check it last started and where ("GET /path"; null for API-wide checks). */
export interface ScanCurrent {
  check: string;
  endpoint: string | null;
}

/**
 * A running scan's pace toward its API (issue 27): the requests it lets be in flight now (halved when the
 * API slows down or times out, won back as it recovers), the configured most, and the request rate now.
 */
export interface ScanPace {
  limit: number;
  max: number;
  /** Request starts per second allowed now; 0 without a cap. */
  rps: number;
  /** A heavy probe runs alone now (nothing else in flight to the API). */
  alone: boolean;
}

export interface ScanInfo {
  started_at: string | null;
  completed_at: string | null;
  progress: { done: number; total: number };
  requests_sent: number;
  /** The scan's notes, information and problems alike, in order. */
  errors: string[];
  /**
   * The notes among `errors` that are problems: a failed login or check, a budget run out, a request the
   * scope guard refused, answers that never came (shared/scan-notes.ts). Absent on scans from before issue 31.
   */
  problems?: string[];
  score: number | null;
  failure_reason: string | null;
  skipped_checks: SkippedCheck[];
  /** The seed the scan's probe values and choices came from (a scan with the same seed repeats them); null or absent on older scans. */
  seed?: number | null;
  /** The write policy the scan ran with (absent on older scans), and the destructive operations it was allowed to call. */
  writes?: WritesSetting;
  destructive?: string[];
  /** Findings of the previous scan that this scan no longer sees. */
  fixed: { fingerprint: string; vulnerability_name: string; method: string; path: string; severity: Severity; /** Absent on scans before issue 31. */ cvss_score?: number }[];
  /** Requests each check sent itself (baselines and the objects the scan created are not counted). */
  requests_by_check: Record<string, number>;
  /** Who the scan spoke as: how each identity was obtained, who the API says it is, refreshes, failed logins. */
  identities: IdentityReport[];
  /** Users the scan registered for itself (never their passwords). */
  created_users: CreatedUserReport[];
  /** Credentials renewed during the scan, all identities together. */
  refreshes: number;
  /** While the scan runs (and the process running it answers): its current check and endpoint; else null. */
  current?: ScanCurrent | null;
  /** While the scan runs (and the process running it answers): its pace toward the API; else null. */
  pace?: ScanPace | null;
  /** What the scan reached and exercised (issue 26); the whole ledger is GET /api/scan/coverage. Absent on older scans. */
  coverage?: CoverageSummary | null;
  /** A scan that failed at an identity's login: which one and what the API answered (issue 31); else absent or null. */
  login_failure?: LoginFailure | null;
}

export interface CreatedUserReport {
  username: string | null;
  email: string | null;
  operation: string;
  purpose: string;
}

/** A user the scan registered, with the password it has on the target (null when none was kept). */
export interface CreatedUserWithPassword extends CreatedUserReport {
  password: string | null;
}

/** A scan with its findings: whole (`Finding`) or as the list reads them (`FindingBrief`). */
export interface ScanFindingRequest {
  scan_id: string;
  finding_id: string;
}

export interface ScanDetails<F extends FindingBrief = Finding> {
  scan_id: string;
  api_id: string;
  status: ScanStatus;
  results: { scan_info: ScanInfo; results: F[] };
}

export interface Schedule {
  api_id: string;
  frequency: ScheduleFrequency;
  is_enabled: boolean;
  next_run_at: string | null;
  last_run_at: string | null;
  /** When it runs, in `time_zone`: "09:30". */
  time_of_day: string;
  /** An IANA zone ("Europe/Berlin") or a fixed offset zone ("Etc/GMT-2"). */
  time_zone: string;
  /** Weekly: the ISO weekday (1 Monday ... 7 Sunday); null otherwise. */
  weekday: number | null;
  /** Monthly: the day (29-31 run on a shorter month's last day); null otherwise. */
  day_of_month: number | null;
}

export interface Share {
  user_id: string;
  name: string;
  email: string;
  permission: SharePermission;
}

export interface Environment {
  isDocker: boolean;
  /** May this runner scan loopback and private addresses (DESIGN.md section 7). */
  localScans: boolean;
  /** Is social sign-in (an OpenID provider) configured? The sign-in pages hide the button when not. */
  socialSignIn: boolean;
}

/** `GET /api/health`: can this node reach its database? 200 when it can, 503 when it cannot. */
export interface Health {
  database: 'reachable' | 'unreachable';
  /** The store's engine: SQLite (one node) or PostgreSQL (shared by several nodes). */
  store: 'sqlite' | 'postgres';
}

// ---------------------------------------------------------------- requests and responses

export type LoginRequest = ({ email: string } | { username: string }) & { password: string };
export interface LoginData {
  token: string;
  user: User;
}
/** A correct first factor on an account with two-factor sign-in: answer the challenge with a code. */
export interface TwoFactorRequired {
  two_factor_required: true;
  challenge: string;
}
export type SignInData = LoginData | TwoFactorRequired;

export interface TwoFactorStatus {
  enabled: boolean;
  recovery_codes_left: number;
}
export interface TwoFactorSetup {
  secret: string;
  otpauth_url: string;
  /** A PNG data URL of the otpauth URL's QR code. */
  qr_data_url: string;
}
export interface ActiveSession {
  id: string;
  created_at: string;
  last_used_at: string;
  client: string | null;
  ip: string | null;
  current: boolean;
}
export interface SignInRecord {
  created_at: string;
  client: string | null;
  ip: string | null;
  method: string;
}
export interface SignupRequest {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
}
export interface GoogleLoginRequest {
  email: string;
  firstName: string;
  lastName: string;
  name: string;
  profilePicture: string | null;
  googleId: string;
  provider: 'google';
  /** The ID token the identity provider issued; the only part the server trusts. */
  idToken?: string;
  /** The nonce of POST /api/auth/oidc/start, spent by this call. */
  nonce?: string;
}
/** Social sign-in round trip (docs/api.md): the provider URL to open, and the exchanged code. */
export interface OidcStartRequest {
  redirectUri: string;
}
export interface OidcStartData {
  authorizationUrl: string;
  state: string;
}
export interface OidcCallbackRequest {
  code: string;
  state: string;
  iss?: string;
}
export interface OidcCallbackData {
  idToken: string;
  nonce: string;
  /** The spec's social login payload, from the verified claims. */
  profile: Omit<GoogleLoginRequest, 'idToken' | 'nonce'>;
}
export interface ForgotPasswordRequest {
  email: string;
}
export interface ResetPasswordRequest {
  token: string;
  password: string;
}
export interface UpdateProfileRequest {
  firstName: string;
  lastName: string;
  username?: string;
}
export interface PasswordChangeRequest {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}
export interface UpdatePreferencesRequest {
  preferences: Preferences;
}
export type UpdateExtendedProfileRequest = Partial<Omit<ExtendedProfile, 'avatar_url'>> & { avatar_url?: string };

export interface ApiScoped {
  api_id: string;
  user_id?: string;
}
export type DeleteApiRequest = ApiScoped;
export interface UpdateApiRequest extends ApiScoped {
  updates: { title?: string; base_url?: string };
}
export interface ManualApiRequest {
  user_id?: string;
  name: string;
  base_url: string;
  endpoints: { method: string; path: string; summary?: string }[];
}
/** POST /api/import/graphql: a live GraphQL endpoint imported by introspection. */
export interface GraphqlImportRequest {
  /** The endpoint's URL ("https://api.example.com/graphql"). */
  url: string;
  /** The API's name (default: the endpoint's host). */
  name?: string;
  /** Who asks (a key or a login, as in Configure Scan) when introspection needs credentials; never stored. */
  identity?: IdentityInput | null;
}

/** POST /api/import/url: an API description (OpenAPI, Swagger, Postman, HAR, GraphQL SDL) fetched by the server from its URL. */
export interface UrlImportRequest {
  user_id?: string;
  /** The description's URL ("https://api.example.com/openapi.json"). */
  url: string;
}

export interface ImportData {
  api: ApiSummary;
  endpoint_count: number;
  warnings: ImportWarning[];
  format: string;
}
/** What a user's own APIs hold, as the quotas count it (issue 18, item 6); shared APIs count for their owner. */
export interface QuotaAmounts {
  apis: number;
  endpoints: number;
  bytes: number;
}
/** GET /api/user/usage: `limits` null where there is no limit. */
export interface UsageData {
  usage: QuotaAmounts;
  limits: { apis: number | null; endpoints: number | null; bytes: number | null };
}
export type EndpointsRequest = ApiScoped;
/** One flag for all of an API's endpoints, or the listed ones. */
export interface BulkFlagRequest extends ApiScoped {
  flags: Flag;
  on: boolean;
  endpoint_ids?: string[];
}
export interface FlagRequest extends ApiScoped {
  endpoint_id: string;
  flags: Flag;
}
export interface CreateScanRequest extends ApiScoped {
  scan_profile: string;
  /** The quick path: a static key of a user (required unless `identities` is given). */
  api_key_1?: string;
  api_key_2?: string;
  /** Which key belongs to the lower-privileged user, for BFLA (default 2). */
  lower_privilege_key?: 1 | 2;
  /** Named identities (shared/identities.ts); take the place of the keys. */
  identities?: IdentityInput[];
  /** Whether the scan registers its own test users (default: on for local targets). */
  signup?: SignupSetting;
  /** The seed of the scan's probe values and choices, 0 to 4294967295 (default: a new one per scan). */
  seed?: number;
  /** Writes and deletes may touch objects the scan did not create (a disposable instance); default false. */
  allow_existing_objects?: boolean;
  /** With allow_existing_objects: operations that look destructive which the scan may call ("GET /createdb"). */
  destructive_operations?: string[];
  /** Requests per second, 0 = no cap (shared/scan-traffic.ts SCAN_PACE_LIMITS; default: the server's). */
  rps?: number;
  /** Requests in flight at once (SCAN_PACE_LIMITS; default: the server's). */
  concurrency?: number;
  /** Where the identities' kept-secret markers (KEPT_SECRET) take their values from: a saved setup, or the caller's own scan. */
  kept_from?: KeptFrom;
}
/** A saved identity setup or the caller's own scan, whose secrets the server keeps (issue 31). */
export type KeptFrom = { setup_id: string; scan_id?: undefined } | { scan_id: string; setup_id?: undefined };
/** An identity setup that signed in for a scan of the API (issue 31): what the list shows, no secret. */
export interface IdentitySetup {
  id: string;
  /** When a scan last signed in with it. */
  worked_at: string;
  identities: { name: string; role: string; obtained: string; placement: string }[];
  signup: SignupSetting | null;
}
/** A setup's (or a scan's) identities for the form: every secret is KEPT_SECRET, the server fills it back. */
export interface IdentityRecipe {
  identities: IdentityConfig[];
  signup: SignupSetting | null;
  /** How many secrets are kept on the server (markers in `identities`). */
  kept: number;
  /** With a scan: the identity whose login failed, if it did. */
  failed_identity: string | null;
}
export interface RetryScanRequest extends ScanIdRequest {
  /** Edited identities (kept-secret markers take the scan's own values); absent: as the scan had them. */
  identities?: IdentityInput[];
  signup?: SignupSetting;
}
/** Settings → Scan traffic (issue 27): the user's upstream proxy, never with its password. */
export interface ScanTrafficSettings {
  /** The user's proxy URL without its password (the user name stays), or null for none. */
  proxy_url: string | null;
  /** The stored URL carries a password (kept when the form saves the URL unchanged). */
  proxy_password_set: boolean;
  /** The CA trusted for a TLS-intercepting proxy: its first certificate, described. */
  ca: { subject: string; valid_to: string; fingerprint256: string; certificates: number } | null;
  /** The server's proxy for every scan (PORTCULLIS_PROXY), password masked; the user's own takes its place. */
  server_proxy: string | null;
  /** false on a team server without local scans: a user's proxy must have a public address there. */
  local_proxy_allowed: boolean;
}
export interface UpdateScanTrafficRequest {
  /** http(s)://[user[:password]@]host:port, or null (or '') for none. */
  proxy_url: string | null;
  /** A new password; absent: the stored one is kept for the same scheme, host, port and user name; '' removes it. */
  proxy_password?: string;
  /** The proxy's CA certificate(s) in PEM; null removes it; absent keeps it. */
  ca_pem?: string | null;
}
/** Configure Scan's Test button: log in as one identity and say who the API thinks it is. */
export interface TestIdentityRequest extends ApiScoped {
  identity: IdentityInput;
  kept_from?: KeptFrom;
}
export interface TestIdentityData {
  ok: boolean;
  /** What went wrong, or what was learnt ("name1 (GET /me)"). */
  message: string;
  /** The credential masked: its kind, length and expiry, never a character of it. */
  token: string | null;
  /** Cookies of a session, by name only. */
  cookies: string[];
  /** Who the API says it is, when a /me-like endpoint told. */
  verified_as: string | null;
  /** Where the credential goes. */
  placement: string;
  /** The login requests and their statuses ("POST /login -> 200"). */
  steps: string[];
  /** A failed login: the answer that made it fail (status and a bounded excerpt, secrets redacted). */
  answer?: LoginAnswer | null;
  /** A token pointer that found nothing: the pointers in the answer that look like a token (never their values). */
  candidates?: string[];
  /** The form field the failure points at ("login.token", "token", "login.steps.0.body"), for the editor to focus. */
  field?: string | null;
}

/** What a login request got back, as a failure quotes it: no secret in it. */
export interface LoginAnswer {
  /** "POST /api/v2/auth/login". */
  request: string;
  /** null when no answer came (the excerpt then says why). */
  status: number | null;
  /** At most about 200 characters of the body; values of secret-named fields, JWTs and token-like strings redacted. */
  excerpt: string | null;
}

/** Why a scan stopped at an identity's login (issue 31): which identity, and what the API answered. */
export interface LoginFailure {
  identity: string;
  /** At the scan's start, or when a credential was renewed during it. */
  during: 'start' | 'renewal';
  answer: LoginAnswer | null;
  candidates?: string[];
  /** The form field the mistake is most likely in ("login.token", "login.steps.0.body"). */
  field?: string | null;
}
/** What Configure Scan pre-fills from the API: the inferred placement, sign-up and login operations. */
export interface IdentityDefaults {
  /** "Bearer token in Authorization (security scheme "bearerAuth")". */
  placement: string;
  /** The placement as a `place` value the user can edit, or null when it is bearer (the default). */
  place: PlacementConfig | null;
  signup_operation: string | null;
  login_operation: string | null;
  /** The OAuth2 token URL the spec declares. */
  token_url: string | null;
  /** Sign-up default: on for local targets. */
  signup_default: 'auto' | 'off';
  /** Commands may obtain credentials here (desktop and CLI, never a team server). */
  commands_allowed: boolean;
}
export interface StartScanRequest extends ApiScoped {
  scan_profile: string;
  /** The scan that create answered; without it the API's latest created scan of the caller starts. */
  scan_id?: string;
}
export interface ScanIdRequest {
  scan_id: string;
  user_id?: string;
}
/** Configure Scan's offer: the caller's last scan of an API that still holds its keys (no secret here). */
export interface LastScanConfiguration {
  scan_id: string;
  created_at: string;
  profile: string;
  identities: { name: string; role: string; obtained: string; placement: string }[];
  rps: number | null;
  concurrency: number | null;
}

export interface ScheduleRequest extends ApiScoped {
  frequency: ScheduleFrequency;
  is_enabled: boolean;
  /** "HH:MM" (24 h); default: the time of saving. */
  time_of_day?: string;
  /** IANA zone or "UTC+02:00"; default: the user's Settings time zone, else the server's. */
  time_zone?: string;
  /** Weekly only, ISO 1-7; default: the weekday of saving. */
  weekday?: number;
  /** Monthly only, 1-31; default: the day of saving. */
  day_of_month?: number;
}
export interface ShareRequest {
  owner_user_id?: string;
  api_id: string;
  email: string;
  permission: SharePermission;
}
export interface RevokeShareRequest {
  owner_user_id?: string;
  api_id: string;
  revoke_user_id: string;
}
export type LeaveShareRequest = ApiScoped;

/**
 * Every route: request (body or query) and the `data` of its envelope.
 * `query` routes take their input in the query string; the others in a JSON body.
 */
export interface ApiContract {
  'POST /api/auth/login': { body: LoginRequest; data: SignInData };
  'POST /api/auth/login/2fa': { body: { challenge: string; code: string }; data: LoginData };
  'POST /api/auth/signup': { body: SignupRequest; data: { user: User } };
  'POST /api/auth/google-login': { body: GoogleLoginRequest; data: SignInData };
  'POST /api/auth/oidc/start': { body: OidcStartRequest; data: OidcStartData };
  'POST /api/auth/oidc/callback': { body: OidcCallbackRequest; data: OidcCallbackData };
  'POST /api/auth/logout': { body: Record<string, never>; data: undefined };
  'POST /api/auth/forgot-password': { body: ForgotPasswordRequest; data: undefined };
  'POST /api/auth/reset-password': { body: ResetPasswordRequest; data: undefined };
  'GET /api/user/profile': { query: Record<string, never>; data: { user: User } };
  'GET /api/user/usage': { query: Record<string, never>; data: UsageData };
  'PUT /api/user/update': { body: UpdateProfileRequest; data: { user: User } };
  'PUT /api/user/password': { body: PasswordChangeRequest; data: undefined };
  'GET /api/user/preferences': { query: Record<string, never>; data: { preferences: Preferences } };
  'PUT /api/user/preferences': { body: UpdatePreferencesRequest; data: { preferences: Preferences } };
  'GET /api/user/extended-profile': { query: Record<string, never>; data: { profile: ExtendedProfile } };
  'GET /api/user/2fa': { query: Record<string, never>; data: TwoFactorStatus };
  'POST /api/user/2fa/setup': { body: Record<string, never>; data: TwoFactorSetup };
  'POST /api/user/2fa/enable': { body: { code: string }; data: { recovery_codes: string[] } };
  'POST /api/user/2fa/disable': { body: { password: string; code: string }; data: undefined };
  'POST /api/user/2fa/recovery-codes': { body: { code: string }; data: { recovery_codes: string[] } };
  'GET /api/user/sessions': { query: Record<string, never>; data: { sessions: ActiveSession[] } };
  'DELETE /api/user/sessions': { body: { session_id: string }; data: undefined };
  'POST /api/user/sessions/revoke-others': { body: Record<string, never>; data: undefined };
  'GET /api/user/sign-ins': { query: Record<string, never>; data: { sign_ins: SignInRecord[] } };
  'PUT /api/user/extended-profile': { body: UpdateExtendedProfileRequest; data: { profile: ExtendedProfile } };
  'GET /api/user/scan-traffic': { query: Record<string, never>; data: { traffic: ScanTrafficSettings } };
  'PUT /api/user/scan-traffic': { body: UpdateScanTrafficRequest; data: { traffic: ScanTrafficSettings } };
  'GET /api/stats/platform': { query: Record<string, never>; data: PlatformStats };
  'GET /api/dashboard/overview': { query: { user_id?: string }; data: DashboardOverview };
  'GET /api/environment': { query: Record<string, never>; data: Environment };
  'GET /api/health': { query: Record<string, never>; data: Health };
  'GET /api/apis': { query: { user_id?: string }; data: { apis: ApiSummary[] } };
  'POST /api/import': { body: FormData; data: ImportData };
  'POST /api/apis/manual': { body: ManualApiRequest; data: ImportData };
  'POST /api/import/graphql': { body: GraphqlImportRequest; data: ImportData };
  'POST /api/import/url': { body: UrlImportRequest; data: ImportData };
  'DELETE /api/apis/delete': { body: DeleteApiRequest; data: undefined };
  'PUT /api/apis/update': { body: UpdateApiRequest; data: { api: ApiSummary } };
  'POST /api/endpoints': { body: EndpointsRequest; data: { endpoints: Endpoint[] } };
  'POST /api/endpoints/flags/add': { body: FlagRequest; data: { endpoint: Endpoint } };
  'POST /api/endpoints/flags/remove': { body: FlagRequest; data: { endpoint: Endpoint } };
  'POST /api/endpoints/flags/bulk': { body: BulkFlagRequest; data: { changed: number } };
  'POST /api/scan/create': { body: CreateScanRequest; data: { scan_id: string } };
  'POST /api/scan/identity/test': { body: TestIdentityRequest; data: TestIdentityData };
  'POST /api/scan/identity/defaults': { body: ApiScoped; data: IdentityDefaults };
  'GET /api/scan/last-config': { query: { api_id: string }; data: { last: LastScanConfiguration | null } };
  /** The caller's identity setups of the API that worked, newest first (issue 31). */
  'GET /api/scan/identity/setups': { query: { api_id: string }; data: { setups: IdentitySetup[] } };
  'POST /api/scan/identity/recipe': { body: ApiScoped & KeptFrom; data: IdentityRecipe };
  'POST /api/scan/identity/setups/delete': { body: ApiScoped & { setup_id: string }; data: { deleted: boolean } };
  'POST /api/scan/repeat': { body: ApiScoped; data: { scan_id: string } };
  /** Configure Scan's write policy: the operations that look destructive, and whether the API is local. */
  'POST /api/scan/write-policy': { body: ApiScoped; data: WritePolicyData };
  'POST /api/scan/start': { body: StartScanRequest; data: { scan_id: string; status: ScanStatus } };
  'POST /api/scan/details': { body: ScanIdRequest; data: ScanDetails };
  /** The details with each finding's brief: what the scan page's list and live view read. */
  'POST /api/scan/details/brief': { body: ScanIdRequest; data: ScanDetails<FindingBrief> };
  /** One finding of a scan, whole (the scan page's detail pane). */
  'POST /api/scan/finding': { body: ScanFindingRequest; data: { finding: Finding } };
  'POST /api/scan/coverage': { body: ScanIdRequest; data: { coverage: ScanCoverage | null } };
  'POST /api/scan/created-users': { body: ScanIdRequest; data: { users: CreatedUserWithPassword[] } };
  'GET /api/findings/triage/export': { query: { api_id: string }; data: TriageExport };
  'POST /api/findings/triage': { body: TriageRequest; data: { finding_id: string; fingerprint: string; triage: FindingTriage; affected_scans: number } };
  /** Re-test (issue 29): answers once the check has run on the operation again (at most RETEST_LIMITS.maxDurationMs). */
  'POST /api/findings/retest': { body: RetestRequest; data: RetestResponse };
  'GET /api/findings/retests': { query: { finding_id: string }; data: RetestHistoryResponse };
  'POST /api/findings/close-fixed': { body: CloseFixedRequest; data: { finding_id: string; fingerprint: string; triage: FindingTriage; affected_scans: number } };
  /** `stopped`: its requests have stopped (200); false (202): the node running it has not confirmed it yet. */
  'POST /api/scan/cancel': { body: ScanIdRequest; data: { scan_id: string; status: ScanStatus; stopped: boolean } };
  'POST /api/scan/retry': { body: RetryScanRequest; data: { scan_id: string; status: ScanStatus } };
  'GET /api/scan/list': { query: { user_id?: string; api_id: string }; data: { scans: ScanSummary[] } };
  'GET /api/scans/schedule': { query: { user_id?: string; api_id: string }; data: { schedule: Schedule | null } };
  'POST /api/scans/schedule': { body: ScheduleRequest; data: { schedule: Schedule } };
  'DELETE /api/scans/schedule': { body: ApiScoped; data: undefined };
  /** The scan's traffic as HAR 1.2 (a file, like a report): once the scan has ended. */
  'GET /api/scan/traffic': { query: { scan_id: string }; data: undefined };
  'GET /api/reports/download': {
    query: { scan_id: string; report_type: ReportType; user_id?: string };
    data: undefined;
  };
  'POST /api/apis/share': { body: ShareRequest; data: { share: Share } };
  'GET /api/apis/shares': { query: { user_id?: string; api_id: string }; data: { shares: Share[] } };
  'DELETE /api/apis/share': { body: RevokeShareRequest; data: undefined };
  'DELETE /api/apis/leave-share': { body: LeaveShareRequest; data: undefined };
}

export type RouteKey = keyof ApiContract;
export type RouteData<K extends RouteKey> = ApiContract[K]['data'];

/** PDF report types only; the other report types are exports. */
export type { PdfReportType };
