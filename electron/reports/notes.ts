// Reads the run notes the scan engine keeps in scans.notes (JSON) without trusting their shape:
// anything unexpected is dropped, never thrown. See docs/report-formats.md for what the engine writes.

import { FLAGS, type Flag, type Severity } from '../../shared/constants';
import type { CreatedUserReport } from '../../shared/contract';
import { severityBucket } from '../../shared/severity';
import { IDENTITY_ROLES, type IdentityReport, type IdentityRole } from '../../shared/identities';

export interface NotesSkippedCheck {
  check_id: string;
  title: string;
  reason: string;
  owasp: string | null;
}

export interface NotesCheckRun {
  check_id: string;
  title: string | null;
  owasp: string | null;
  /** "METHOD path" of each endpoint the check ran against; null when not recorded. */
  endpoints: string[] | null;
}

export interface NotesFixed {
  fingerprint: string;
  vulnerability_name: string;
  method: string;
  path: string;
  severity: Severity | null;
  cvss_score?: number;
}

export interface NotesEndpoint {
  method: string;
  path: string;
  summary: string;
  flags: Flag[];
}

export interface ScanNotes {
  /** Every note of the scan, problems and information alike, in order. */
  errors: string[];
  /** The notes among `errors` the scanner recorded as problems; null: not recorded (scans from before issue 31). */
  problems: string[] | null;
  skipped_checks: NotesSkippedCheck[];
  /** null: the engine did not say (the loader then compares with the previous scan itself). */
  fixed: NotesFixed[] | null;
  /** null: the engine did not list the checks it ran. */
  checks_run: NotesCheckRun[] | null;
  /** null: the engine did not keep a snapshot of the endpoints it scanned. */
  endpoints: NotesEndpoint[] | null;
  /** Who the scan spoke as (no secrets); empty for scans from before identities. */
  identities: IdentityReport[];
  /** Users the scan registered for itself (never their passwords); empty when none or not recorded. */
  created_users: CreatedUserReport[];
  /** Credentials renewed during the scan, all identities together. */
  refreshes: number;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);
const arr = (v: unknown): unknown[] | null => (Array.isArray(v) ? v : null);
const FLAG_SET = new Set<string>(FLAGS);

/** Caps keep a corrupt or hostile notes column from blowing up a report. */
const MAX_ITEMS = 5000;
const MAX_TEXT = 4000;
const clip = (s: string): string => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s);

function errorsOf(v: unknown): string[] {
  const list = arr(v) ?? (str(v) ? [v] : []);
  const out: string[] = [];
  for (const e of list.slice(0, MAX_ITEMS)) {
    const text = str(e) ?? (isObj(e) ? (str(e.message) ?? str(e.error) ?? str(e.reason)) : null);
    if (text) out.push(clip(text));
  }
  return out;
}

function skippedOf(v: unknown): NotesSkippedCheck[] {
  const out: NotesSkippedCheck[] = [];
  for (const e of (arr(v) ?? []).slice(0, MAX_ITEMS)) {
    if (typeof e === 'string' && e.trim()) {
      out.push({ check_id: e, title: e, reason: 'No reason recorded.', owasp: null });
      continue;
    }
    if (!isObj(e)) continue;
    const id = str(e.check_id) ?? str(e.id) ?? str(e.check);
    if (!id) continue;
    out.push({
      check_id: clip(id),
      title: clip(str(e.title) ?? str(e.name) ?? id),
      reason: clip(str(e.reason) ?? str(e.why) ?? 'No reason recorded.'),
      owasp: str(e.owasp) ?? str(e.category),
    });
  }
  return out;
}

function fixedOf(v: unknown): NotesFixed[] | null {
  const list = arr(v);
  if (!list) return null;
  const out: NotesFixed[] = [];
  for (const e of list.slice(0, MAX_ITEMS)) {
    if (!isObj(e)) continue;
    const fingerprint = str(e.fingerprint);
    if (!fingerprint) continue;
    out.push({
      fingerprint,
      vulnerability_name: clip(str(e.vulnerability_name) ?? str(e.name) ?? fingerprint),
      method: str(e.method)?.toUpperCase() ?? '',
      path: clip(str(e.path) ?? ''),
      severity: str(e.severity) ? severityBucket(str(e.severity)) : null,
      ...(typeof e.cvss_score === 'number' && Number.isFinite(e.cvss_score) ? { cvss_score: e.cvss_score } : {}),
    });
  }
  return out;
}

function checksRunOf(v: unknown): NotesCheckRun[] | null {
  const list = arr(v);
  if (!list) return null;
  const out: NotesCheckRun[] = [];
  for (const e of list.slice(0, MAX_ITEMS)) {
    const id = typeof e === 'string' ? str(e) : isObj(e) ? (str(e.check_id) ?? str(e.id)) : null;
    if (!id) continue;
    const o = isObj(e) ? e : {};
    const eps = arr(o.endpoints);
    out.push({
      check_id: clip(id),
      title: str(o.title) ?? str(o.name),
      owasp: str(o.owasp) ?? str(o.category),
      endpoints: eps ? eps.map((x) => str(x)).filter((x): x is string => x !== null).slice(0, MAX_ITEMS) : null,
    });
  }
  return out;
}

function endpointsOf(v: unknown): NotesEndpoint[] | null {
  const list = arr(v);
  if (!list) return null;
  const out: NotesEndpoint[] = [];
  for (const e of list.slice(0, 50_000)) {
    if (!isObj(e)) continue;
    const method = str(e.method);
    const path = str(e.path);
    if (!method || !path) continue;
    const flags = (arr(e.flags) ?? []).filter((f): f is Flag => typeof f === 'string' && FLAG_SET.has(f));
    out.push({ method: method.toUpperCase(), path, summary: str(e.summary) ?? '', flags: [...new Set(flags)] });
  }
  return out;
}

const ROLE_SET = new Set<string>(IDENTITY_ROLES);
/** A count: a finite number, at least 0, whole; anything else is 0. */
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.min(Math.floor(v), Number.MAX_SAFE_INTEGER) : 0);

/** An entry needs a name and a known role; the other fields fall back to "not recorded". */
function identitiesOf(v: unknown): IdentityReport[] {
  const out: IdentityReport[] = [];
  for (const e of (arr(v) ?? []).slice(0, MAX_ITEMS)) {
    if (!isObj(e)) continue;
    const name = typeof e.name === 'string' && e.name.trim() ? e.name : null;
    const role = typeof e.role === 'string' && ROLE_SET.has(e.role) ? (e.role as IdentityRole) : null;
    if (!name || !role) continue;
    const verified = typeof e.verified_as === 'string' && e.verified_as.trim() ? e.verified_as : null;
    out.push({
      name: clip(name),
      role,
      obtained: clip(typeof e.obtained === 'string' && e.obtained.trim() ? e.obtained : 'not recorded'),
      verified_as: verified ? clip(verified) : null,
      refreshes: count(e.refreshes),
      failures: count(e.failures),
      created: e.created === true,
    });
  }
  return out;
}

/** An entry needs a username or an e-mail; only these four fields are read (a stray password never is). */
function createdUsersOf(v: unknown): CreatedUserReport[] {
  const out: CreatedUserReport[] = [];
  const text = (x: unknown): string | null => (typeof x === 'string' && x.trim() ? clip(x) : null);
  for (const e of (arr(v) ?? []).slice(0, MAX_ITEMS)) {
    if (!isObj(e)) continue;
    const username = text(e.username);
    const email = text(e.email);
    if (!username && !email) continue;
    out.push({ username, email, operation: text(e.operation) ?? '', purpose: text(e.purpose) ?? '' });
  }
  return out;
}

export function parseScanNotes(json: string | null | undefined): ScanNotes {
  let raw: unknown = null;
  try {
    raw = json ? JSON.parse(json) : null;
  } catch {
    raw = null;
  }
  const o: Obj = isObj(raw) ? raw : {};
  const identities = identitiesOf(o.identities);
  return {
    errors: errorsOf(o.errors),
    // Read as `errors` is (clipped alike), so each problem still matches its note.
    problems: Array.isArray(o.problems) ? errorsOf(o.problems) : null,
    skipped_checks: skippedOf(o.skipped_checks ?? o.skipped),
    fixed: fixedOf(o.fixed),
    checks_run: checksRunOf(o.checks_run ?? o.checks),
    endpoints: endpointsOf(o.endpoints),
    identities,
    created_users: createdUsersOf(o.created_users),
    // Without the engine's total, the identities' own counts add up to it (0 for scans from before identities).
    refreshes: typeof o.refreshes === 'number' ? count(o.refreshes) : identities.reduce((n, i) => Math.min(n + i.refreshes, Number.MAX_SAFE_INTEGER), 0),
  };
}
