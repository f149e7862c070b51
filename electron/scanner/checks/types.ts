// The check interface (CONVENTIONS.md "Scanner checks"): plain objects with metadata and two
// behaviours, appliesTo(endpoint) and run(ctx) yielding findings. A check reaches the target only
// through ctx.send() (and the baselines), which apply scope, pacing, budgets and redaction.

import type { ForgeRecipe } from '../jwt-forge';
import type { ProofDraft } from '../proof';
import type { Confidence, Flag } from '../../../shared/constants';
import type { CoverageReason } from '../../../shared/coverage';
import type { NoteKind } from '../../../shared/scan-notes';
import type { ApiSecurity, Endpoint } from '../../../shared/contract';
import type { AuthSpec } from '../identities/placement';
import type { BaselineMode } from '../baselines';
import type { ChosenSecret, LabelledExchange, SetupUser } from '../evidence';
import type { ProbeRequest, SlowOperation } from '../http/engine';
import type { Exchange, KeyNumber, RequestAuth } from '../http/exchange';
import type { Accounts } from '../identities/accounts';
import type { OobService } from '../oob';
import type { PreparedRequest } from '../requests';
import type { SeededRandom } from '../random';
import type { Purpose, ResourcePool } from '../resources';

export type CheckFlag = Exclude<Flag, 'SKIP'>;

export interface CheckMeta {
  /** Stable and never reused: findings are followed across scans by it. */
  id: string;
  title: string;
  /** The endpoint flag that turns the check on (the user edits flags per endpoint). */
  flag: CheckFlag;
  /** "API2:2023". */
  owasp: string;
  /** "CWE-287". */
  cwe: string;
  confidence: Confidence;
  /**
   * CVSS 3.1 base vector of a typical finding; findings may adjust it. A finding's severity is the
   * CVSS band of its final score (severityOfCvss): a finding meant as informational has no impact (0.0).
   */
  cvss: string;
  /** passive: reads baselines only; active: sends its own requests. */
  kind: 'passive' | 'active';
  /** intrusive: may change data (always on objects the scan created) or load the target. */
  safety: 'safe' | 'intrusive';
  /** endpoint: run once per applicable endpoint; api: once per scan over all applicable endpoints. */
  scope: 'endpoint' | 'api';
  /**
   * Runs after every other check: its bursts may trip a lockout or a per-client throttle that would
   * refuse the identities' own logins (and every check after it) for a while.
   */
  last?: boolean;
  /**
   * Runs alone after every other check, the `last` ones included: what it sends may wipe the API's
   * data (a reset route), which would spoil every check still running.
   */
  destructive?: boolean;
  /**
   * Runs after the `last` checks (before the destructive ones): it uses the passwords that the weak-credential
   * checks proved (ctx.provenPasswords), which those find only at the end.
   */
  usesProvenPasswords?: boolean;
  /**
   * A 429 (and its Retry-After) is what the check measures (a burst looking for a rate limit): its requests
   * are not retried after one, as every other check's are (issue 27).
   */
  measuresThrottling?: boolean;
  /** Most requests the check itself may send: per endpoint (endpoint scope) or per scan (api scope). Baselines are not counted. */
  budget: number;
  /** What the check sends and what proves a finding (for docs/checks.md and the report). */
  description: string;
  remediation: string;
  references: string[];
  /** Needs key 2 (cross-user checks): skipped with a reason without it. */
  needsKey2?: boolean;
  /** The SCANNER.md techniques the check implements ("API1.1", "STATEFUL.1"), for docs/checks.md and the registry test. */
  techniques?: string[];
  /** Honest limits of the check (what it cannot see, when it stays silent), for docs/checks.md. */
  coverage?: string;
  /**
   * The kinds of endpoint the check understands (default: REST only). A GraphQL operation
   * (`endpoint.graphql`) answers 200 with `errors` where REST answers 4xx, and its inputs are variables:
   * REST checks would misread it, so only the checks listing 'graphql' run on its operations.
   */
  protocols?: readonly EndpointProtocol[];
  /**
   * Runs only on routes the scan discovered beyond the API description (run-discovery.ts): a scan that
   * discovered none has nothing for it, which is no skip worth listing.
   */
  discoveredOnly?: boolean;
}

export type EndpointProtocol = 'rest' | 'graphql';

export interface Check extends CheckMeta {
  appliesTo(endpoint: Endpoint): boolean;
  run(ctx: CheckContext): AsyncIterable<FindingDraft>;
}

export interface FindingDraft {
  /** The endpoint the finding is about; null for an API-wide finding (then method/path say what it covers). */
  endpoint?: Endpoint | null;
  method?: string;
  path?: string;
  parameter?: string | null;
  /** Default: the check's title. */
  name?: string;
  confidence?: Confidence;
  /** Default: the check's vector. It alone sets the finding's severity (its CVSS band). */
  cvss?: string;
  description: string;
  /** Default: the check's remediation. */
  recommendation?: string;
  /** Lines stating what the exchanges show, placed before them in the evidence. */
  notes?: string[];
  exchanges: LabelledExchange[];
  /** The exchange the curl command reproduces (default: the last one). */
  reproduce?: Exchange;
  /**
   * Users the scan registered that the finding involves: the curl steps start with their
   * registrations and logins (passwords as variables, tokens read from the login answers), so they
   * replay on a fresh instance.
   */
  setup?: SetupUser[];
  /** Secret values the steps send that the reader may choose (a new password the attack sets): variables set at the top. */
  chosen?: ChosenSecret[];
  /** API-wide findings (method or path "*"): the first endpoint where it was seen, shown as the finding's method and path. */
  seenAt?: { method: string; path: string };
  /**
   * A check that leaves this flaw to another one (by id): the finding is held back and reported only
   * when that check reported nothing on the same method and path by the end of the scan.
   */
  deferTo?: string;
  /** The proof sends a token forged from key 1's JWT: how to build it again, so the curl works after the scan's token expired. */
  forge?: ForgeRecipe;
  /**
   * Out of band: the address of the scan's listener the proving request carries, when the proof is the
   * request the API sent there. The curl text reads it from $LISTENER_URL (evidence-listener.ts).
   */
  listener?: string;
  /**
   * What a replay of the curl text must show again (the `reproduce` exchange's answer): the statuses and a
   * marker the technique chose (proof.ts). Fields left out are derived from that answer.
   */
  proof?: ProofDraft;
}

export interface KeyIdentity {
  key: KeyNumber;
  /** The identity's name ("alice"; "key 1" for a scan started with keys). */
  name: string;
  /** Accepted by the API at the health check; null when it could not be told. */
  accepted: boolean | null;
  /** The identity the API gives this key (id, username or email from a /me-like response). */
  id: string | null;
  values: Record<string, string>;
  /** How it was learnt ("GET /me"). */
  source: string | null;
  exchange: Exchange | null;
  /** Its credential comes from a login (renewed during the scan): locking its account out would stop the scan. */
  renewable: boolean;
}

export interface Identities {
  key1: KeyIdentity;
  key2: KeyIdentity | null;
  /** The privileged role (an admin), when the scan has one. */
  privileged: KeyIdentity | null;
  /** The lower-privileged role, when the scan has one. */
  lower: KeyIdentity | null;
  /** Key 1 and key 2 are different users: true (proven), false (same user), null (could not be told). */
  distinct: boolean | null;
  /** How `distinct` was decided, for notes and evidence. */
  how: string;
}

export interface ScanApi {
  id: string;
  name: string;
  baseUrl: string;
  security: ApiSecurity;
}

export interface ScanOptions {
  /** Which key belongs to the lower-privileged user (BFLA). */
  lowerPrivilegeKey: KeyNumber;
  /** Writes and deletes on objects the scan did not create (off by default). */
  allowExistingObjects: boolean;
  /**
   * Operations the user named ("PUT /files/raw", "Mutation.uploadPaste") whose destructive requests and
   * probes (file paths on writes, wipes, widening payloads) the scan may send, with allowExistingObjects
   * (probe-safety.ts).
   */
  namedOperations?: readonly string[];
  /** The seed of the scan's probe values and choices (ctx.random); default 0. */
  seed?: number;
}

/** An account and the password that the scan proved opens it (a weak or default credential). */
export interface ProvenPassword {
  account: string;
  password: string;
  /** The operation that accepted it (its endpoint id), and the check that proved it. */
  endpointId: string;
  checkId: string;
}

export interface CheckContext {
  readonly check: Check;
  readonly api: ScanApi;
  /** The endpoint under test (endpoint scope); the first applicable one for api scope. */
  readonly endpoint: Endpoint;
  /** Endpoint scope: [endpoint]. API scope: every endpoint the check applies to. */
  readonly endpoints: readonly Endpoint[];
  /** Every endpoint of the scan (SKIP ones excluded). */
  readonly allEndpoints: readonly Endpoint[];
  readonly hasKey2: boolean;
  readonly identities: Identities;
  /** Users the scan may register for itself (victims of account checks); null where sign-up is off or not found. */
  readonly accounts: Accounts | null;
  readonly options: ScanOptions;
  /**
   * Probe values and choices of this check on this operation, from the scan's seed (random.ts): made-up
   * credentials, origins, ids and codes. Markers stored on the target and passwords stay crypto-random.
   */
  readonly random: SeededRandom;
  readonly resources: ResourcePool;
  readonly signal: AbortSignal;
  /** How many requests the engine runs at once: a sensible limit for a check's own parallel loops. */
  readonly parallelism: number;
  /**
   * The scan's out-of-band listener on 127.0.0.1 (a unique token per injection, waitForHit to see
   * whether the target called it); null when it could not be started.
   */
  readonly oob: OobService | null;

  /** The user marked this operation SKIP (checks that guess paths leave it out; the engine refuses it anyway). */
  skips(method: string, url: string | URL): boolean;
  /** Sends a request charged to this check's budget (and the endpoint's). */
  send(request: ProbeRequest, endpoint?: Endpoint): Promise<Exchange>;
  /** Sends a prepared request as `auth`. */
  sendPrepared(request: PreparedRequest, auth: RequestAuth, extra?: Partial<ProbeRequest>): Promise<Exchange>;
  /** The shared baseline exchange (sent on first use); null when unavailable (no key 2, unsafe request without a scan-created object). */
  baseline(mode: BaselineMode, endpoint?: Endpoint): Promise<Exchange | null>;
  /** The request the baselines use, to derive attacks from. */
  baselineRequest(endpoint?: Endpoint, mode?: BaselineMode): Promise<PreparedRequest | null>;
  /** A request as `key` would make it, with its own objects' ids (null when the safety rule forbids it). */
  prepare(endpoint: Endpoint, key: KeyNumber, purpose?: Purpose): Promise<PreparedRequest | null>;
  /** Where credentials go for this endpoint, and whether the spec says it needs them. */
  authSpec(endpoint?: Endpoint): AuthSpec;
  /** A URL relative to the API's base URL ("/v1/users"), or absolute. */
  url(pathOrUrl: string): URL;
  /** The answers of the slot's current login (empty for a static key): what the API issued to it, for checks that read issued tokens. Its secrets are redacted in findings. */
  loginExchanges(key: KeyNumber): readonly Exchange[];
  /** The slot's current token, for checks that must derive a credential from it (JWT tampering); null for a cookie session. Never put it in finding text: it is redacted anyway. */
  credential(key: KeyNumber): string | null;
  /** The name of the identity in a slot ("alice"; "key 1" for a scan started with keys). */
  identityName(key: KeyNumber): string;
  /** Requests this check may still send here. */
  budgetLeft(endpoint?: Endpoint): number;
  /** A note in the scan's errors list (redacted): information unless `kind` says it is a problem (the check left something broken). */
  note(message: string, kind?: NoteKind): void;
  /**
   * The check did not send some probes to this operation (default: the endpoint under test) because of
   * the safety rule (probe-safety.ts): the reason, and what the user can do, end up in one scan note.
   */
  holdBack(reason: string, endpoint?: Endpoint): void;
  /** Marks the check skipped for this scan, with the reason shown in the scan details (and as a coverage reason on the task's operations). */
  skip(reason: string, code?: CoverageReason): void;
  /** The operations found slow so far (http/engine.ts): those whose own answer time was past the bar are sent nothing more. */
  slowOperations?(): readonly SlowOperation[];
  /** A password the check proved for an account (a weak credential that opened it): later checks may use it; it is redacted from then on. */
  provePassword?(proven: ProvenPassword): void;
  /** The passwords proved so far in this scan (usesProvenPasswords checks run after every check that proves one). */
  provenPasswords?(): readonly ProvenPassword[];
}
