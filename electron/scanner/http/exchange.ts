// One request the scanner sent and what came back: the unit every check compares and every
// finding's evidence is built from.

import type { CredentialPlacement } from '../identities/placement';

/**
 * The identity slots checks speak as: 1 the primary user (it owns what the scan creates), 2 a
 * second user of the same role (cross-user tests), 3 the privileged role, 4 the lower-privileged role.
 */
export type KeyNumber = 1 | 2 | 3 | 4;
export const PRIMARY: KeyNumber = 1;
export const SECOND_USER: KeyNumber = 2;
export const PRIVILEGED: KeyNumber = 3;
export const LOWER: KeyNumber = 4;

/**
 * Who a request speaks as: an identity slot, a named identity (users the scan created), nobody,
 * or an explicit credential (garbage or tampered tokens, placed where key 1's goes).
 */
export type RequestAuth =
  | { kind: 'key'; key: KeyNumber }
  | { kind: 'identity'; name: string }
  | { kind: 'none' }
  | { kind: 'credential'; value: string; label: string };

export const AS_KEY1: RequestAuth = { kind: 'key', key: 1 };
export const AS_KEY2: RequestAuth = { kind: 'key', key: 2 };
export const ANONYMOUS: RequestAuth = { kind: 'none' };

export function authLabel(auth: RequestAuth): string {
  if (auth.kind === 'key') return `key ${auth.key}`;
  if (auth.kind === 'identity') return auth.name;
  if (auth.kind === 'none') return 'no credentials';
  return auth.label;
}

export interface ExchangeRequest {
  method: string;
  url: string;
  /** Lower-case names, as sent (credentials included: redact before showing). */
  headers: Record<string, string>;
  body: string | null;
  auth: RequestAuth;
  /** Where the credentials were put. */
  placements: CredentialPlacement[];
  /** The id of the operation (endpoint) the request was prepared for, when known: the coverage ledger counts it there. */
  operation?: string;
  /** The fresh challenge whose id and answer the scan put into the body (challenge-fill.ts). */
  challenge?: ChallengeUse;
}

/** How a write's body was filled from a fresh challenge (challenge-fill.ts): what a replay fetches and fills again. */
export interface ChallengeUse {
  /** The challenge route ("GET /captcha"). */
  route: string;
  /** The exchange that fetched the challenge just before the write. */
  exchange: Exchange;
  /** The jq filter of the challenge's id in that answer, and the id as it was there. */
  id: { filter: string; value: string | number };
  /** The jq filter of its answer: handed out (leaked), or an arithmetic question worked out (computed); and that value as it was there. */
  answer: { filter: string; how: 'leaked' | 'computed'; value: unknown };
  /** The body's members that took the id and the answer, with the JSON type the body gave each. */
  fields: { key: string; takes: 'id' | 'answer'; type: 'string' | 'number' }[];
}

export interface ExchangeResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", " (set-cookie with "\n"). */
  headers: Record<string, string>;
  /** The body as text, cut at the engine's body limit. */
  body: string;
  /** Bytes read (at most the limit). */
  bytes: number;
  truncated: boolean;
}

export interface Redirect {
  status: number;
  from: string;
  to: string;
}

export class Exchange {
  private parsed: { value: unknown } | undefined;

  constructor(
    readonly seq: number,
    readonly request: ExchangeRequest,
    readonly response: ExchangeResponse | null,
    /** Transport failure ("timeout", "connection refused"...), when there is no response. */
    readonly error: string | null,
    readonly durationMs: number,
    readonly redirects: Redirect[] = [],
    /** An off-host redirect that was not followed. */
    readonly blockedRedirect: string | null = null,
  ) {}

  get status(): number {
    return this.response?.status ?? 0;
  }

  get ok(): boolean {
    const s = this.status;
    return s >= 200 && s < 300;
  }

  header(name: string): string | undefined {
    return this.response?.headers[name.toLowerCase()];
  }

  get body(): string {
    return this.response?.body ?? '';
  }

  get contentType(): string {
    return (this.header('content-type') ?? '').toLowerCase();
  }

  /** The body parsed as JSON (when it is JSON and complete), else undefined. Parsed once. */
  json(): unknown {
    if (this.parsed) return this.parsed.value;
    let value: unknown = undefined;
    const body = this.body;
    const t = body.trimStart();
    if (this.response && !this.response.truncated && (t.startsWith('{') || t.startsWith('['))) {
      try {
        value = JSON.parse(body);
      } catch {
        value = undefined;
      }
    }
    this.parsed = { value };
    return value;
  }
}
