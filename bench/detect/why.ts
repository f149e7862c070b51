// Why a documented flaw was missed, as far as the scan itself says so. Documentation of the
// benchmark's results, never an input to the scanner: it reads the scan's own report (its notes,
// its skipped checks), the description it imported, and the truth file's locations and keywords.
// Where nothing the scan reported explains a miss, there is no reason: the doc says "not found".

import type { SkippedCheck } from '../../shared/contract';
import { actionableSkips, COVERAGE_REASONS, coverageLabel, reachedOperation, type CoverageOperation, type ScanCoverage } from '../../shared/coverage';
import { CHECKS } from '../../electron/scanner/checks/index';

export interface TruthLocation {
  method: string;
  path: string;
  needKeyword?: boolean | 'name';
}

export interface TruthEntry {
  id: string;
  kind: string;
  name: string;
  owasp: string[];
  locations: TruthLocation[];
  keywords?: string[];
}

/** An operation of the imported description, at its path on the target's origin. */
export interface ImportedOperation {
  method: string;
  path: string;
  /** "Query.pastes" for a GraphQL operation. */
  operation?: string;
}

export interface MissEvidence {
  imported: ImportedOperation[];
  /** The scan's notes (findings.json `scan.errors`), every part of the scan together. */
  notes: string[];
  skipped: SkippedCheck[];
  /** The scans' coverage ledgers (findings.json `coverage`), each with the base path its operations sit under. */
  coverage?: { basePath: string; coverage: ScanCoverage }[];
}

/** Most coverage reasons quoted for one flaw (a route many checks skipped would fill the row). */
const MAX_COVERAGE_REASONS = 4;

function classesText(op: CoverageOperation): string {
  const parts = Object.entries(op.identities).map(([name, t]) => `${name}: ${Object.entries(t.classes).map(([c, n]) => `${c} ${n}`).join(', ')}`);
  return parts.length ? parts.join('; ') : 'no request was sent';
}

/**
 * What the scan's coverage ledger says about the flaw's own operations: not reached (no 2xx to any
 * identity, with what each got), or checks of the flaw's category that could not exercise it, with the
 * ledger's reason. Operations shared by several flaws (needKeyword) count only when not reached.
 */
function coverageReasons(e: TruthEntry, ev: MissEvidence, ops: Set<string>): string[] {
  const out: string[] = [];
  for (const { basePath, coverage } of ev.coverage ?? []) {
    for (const op of coverage.operations) {
      const route = { method: op.method, path: normaliseRoute(`${basePath.replace(/\/+$/, '')}${op.path}`) };
      const field = op.operation?.split('.')[1]?.toLowerCase();
      const own = field ? ops.has(field) : e.locations.some((l) => concrete(l) && !l.needKeyword && sameRoute(l, route));
      const shared = !field && e.locations.some((l) => concrete(l) && !!l.needKeyword && sameRoute(l, route));
      if (!own && !shared) continue;
      const label = coverageLabel(op);
      if (!reachedOperation(op)) out.push(`Coverage: ${label} answered no 2xx to any identity (${classesText(op)}).`);
      if (!own) continue;
      const skips = actionableSkips(op).filter((k) => e.owasp.includes(CHECKS.find((c) => c.id === k.check_id)?.owasp ?? ''));
      for (const k of skips) {
        const title = CHECKS.find((c) => c.id === k.check_id)?.title ?? k.check_id;
        out.push(`Coverage: "${title}" did not exercise ${label}: ${COVERAGE_REASONS[k.reason].label}${k.detail && k.detail !== COVERAGE_REASONS[k.reason].label ? ` (${k.detail})` : ''}.`);
      }
    }
  }
  const unique = [...new Set(out)];
  return unique.length > MAX_COVERAGE_REASONS ? [...unique.slice(0, MAX_COVERAGE_REASONS), `Coverage: and ${unique.length - MAX_COVERAGE_REASONS} more.`] : unique;
}

/**
 * Words too common in the scan's own notes to tie a note to one flaw ("token", "password", "delete"
 * and the HTTP methods appear in notes about anything).
 */
const GENERIC = new Set([
  'get',
  'post',
  'put',
  'patch',
  'delete',
  'head',
  'options',
  'id',
  'true',
  'time',
  'file',
  'error',
  'type',
  'size',
  'list',
  'url',
  'token',
  'password',
  'users',
  'admin',
  'header',
  'current',
  'order',
  'rate',
  'limit',
  'flow',
  'internal',
  'sensitive',
  'property',
  'validation',
  'role',
  'log',
  'version',
  'v1',
]);

/**
 * Phrases that say who a check acts as, not what it tests: a skipped check about another user's password
 * says nothing about another user's score card.
 */
const SITUATION = new Set(['another user', 'other user', 'unauthenticated', 'anonymous', 'without credentials']);

/** A route as compared here: parameters unnamed, no trailing slash. */
export function normaliseRoute(p: string): string {
  const bare = p.split('?')[0]!.replace(/\{[^}]*\}/g, '{}');
  return bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A keyword at the start of a word ("throttl" in "throttling", never "sql" inside "NoSQL"). */
export function mentions(text: string, keyword: string): boolean {
  return new RegExp(`(?<![a-z0-9])${escape(keyword.toLowerCase())}`).test(text.toLowerCase());
}

const ROUTE_IN_TEXT = /\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\/[^\s,;:()]*)/g;
const OPERATION_IN_TEXT = /\b(Query|Mutation|Subscription)\.([A-Za-z_][A-Za-z0-9_]*)/g;

function routesIn(text: string): { method: string; path: string }[] {
  return [...text.matchAll(ROUTE_IN_TEXT)].map((m) => ({ method: m[1]!, path: normaliseRoute(m[2]!) }));
}

const sameRoute = (l: TruthLocation, r: { method: string; path: string }) =>
  (l.method === '*' || l.method.toUpperCase() === r.method.toUpperCase()) && normaliseRoute(l.path) === r.path;

const concrete = (l: TruthLocation) => l.method !== '*' && l.path !== '*';

/** GraphQL operations a flaw names among its keywords (lower case). */
function operationKeywords(e: TruthEntry, imported: ImportedOperation[]): Set<string> {
  const fields = new Set(imported.filter((o) => o.operation).map((o) => o.operation!.split('.')[1]!.toLowerCase()));
  return new Set((e.keywords ?? []).map((k) => k.toLowerCase()).filter((k) => fields.has(k)));
}

/** Reasons the scan itself gives for missing `e`; empty when it gives none. */
export function missReasons(e: TruthEntry, ev: MissEvidence): string[] {
  const reasons: string[] = [];
  const ops = operationKeywords(e, ev.imported);
  const technique = (e.keywords ?? []).filter((k) => !GENERIC.has(k.toLowerCase()) && !ops.has(k.toLowerCase()) && k.length >= 3);

  if (e.locations.every(concrete)) {
    const importedRoutes = ev.imported.map((o) => ({ method: o.method, path: normaliseRoute(o.path) }));
    if (!e.locations.some((l) => importedRoutes.some((r) => sameRoute(l, r)))) reasons.push('Its route is not among the operations the scan imported.');
  }

  const own = e.locations.filter((l) => concrete(l) && !l.needKeyword);
  // A route several flaws share (a GraphQL endpoint, a login) ties a note to this flaw only through its technique.
  const shared = e.locations.filter((l) => concrete(l) && l.needKeyword);
  for (const note of ev.notes) {
    const named = [...note.matchAll(OPERATION_IN_TEXT)].map((m) => m[2]!.toLowerCase());
    const routes = routesIn(note);
    const atOwn = routes.some((r) => own.some((l) => sameRoute(l, r))) || named.some((n) => ops.has(n));
    const atShared = !named.length && routes.some((r) => shared.some((l) => sameRoute(l, r)));
    // The note's words, not its routes: "review" in a path says nothing about the technique.
    const words = note.replace(ROUTE_IN_TEXT, ' ').replace(OPERATION_IN_TEXT, ' ');
    const byTechnique = technique.some((k) => mentions(words, k));
    if ((atOwn && (/was not exercised/.test(note) || byTechnique)) || (atShared && byTechnique)) reasons.push(`Scan note: ${note}`);
  }

  for (const s of ev.skipped) {
    if (!s.owasp || !e.owasp.includes(s.owasp)) continue;
    if (technique.some((k) => !SITUATION.has(k.toLowerCase()) && mentions(s.title, k))) reasons.push(`Skipped check "${s.title}": ${s.reason}`);
  }
  reasons.push(...coverageReasons(e, ev, ops));
  return [...new Set(reasons)];
}
