// The importer's own `$ref` resolver. Only local JSON pointers (`#/...`) inside the uploaded
// document are followed: it never reads a file or opens a connection. An external reference stays
// as `{ "x-unresolved-ref": ref }` with a warning; a cycle is cut where it closes with
// `{ "x-circular": ref }`; copies are bounded in depth and size (`{ "x-truncated": ... }`).
// Complete copies of a reference are memoised, so a schema used by 400 operations is resolved once.

import type { JsonSchema } from '../../shared/contract';
import { parseLocalRef, lookup } from './json-pointer';
import { IMPORT_LIMITS } from './limits';
import type { Warnings } from './warnings';
import { hasOwn, isObject, put, type Obj } from './values';

/** What one endpoint may still store; shared by all its schemas and examples. */
export interface Budget {
  remaining: number;
  /** How many cuts (depth or size) happened while filling it. */
  truncations: number;
  /** References nested deeper than this are not inlined (`{ "x-ref", "x-truncated": "depth" }`). */
  refDepth: number;
  /** Leave out examples, descriptions and titles (response schemas: the scanner reads their shape only). */
  lean: boolean;
}

export const newBudget = (size: number = IMPORT_LIMITS.requestNodeBudget, refDepth = Number.POSITIVE_INFINITY, lean = false): Budget => ({
  remaining: size,
  truncations: 0,
  refDepth,
  lean,
});

/** An endpoint's two budgets: what the scanner sends (parameters, body) matters more than what it reads back. */
export interface Budgets {
  request: Budget;
  responses: Budget;
}

export const newBudgets = (): Budgets => ({
  request: newBudget(),
  responses: newBudget(IMPORT_LIMITS.responseNodeBudget, IMPORT_LIMITS.responseRefDepth, true),
});

export type Deref =
  | { ok: true; value: unknown; ref: string | null }
  | { ok: false; ref: string; reason: 'external' | 'missing' | 'circular' | 'chain' };

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const SCHEMA_ONE = new Set([
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
  'contentSchema',
]);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords kept as literal values. Vendor extensions, xml, externalDocs and $defs are dropped. */
const LITERALS = new Set([
  'type',
  'format',
  'enum',
  'const',
  'default',
  'example',
  'examples',
  'nullable',
  'x-nullable',
  'required',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'multipleOf',
  'readOnly',
  'writeOnly',
  'deprecated',
  'title',
  'discriminator',
  'contentMediaType',
  'contentEncoding',
  'collectionFormat',
]);
const DESCRIPTION_MAX = 200;
const LEAN_DROPS = new Set(['description', 'example', 'examples', 'title', 'default']);
/** Descriptions are kept on a schema and its direct properties only: deeper ones are most of a large spec's bytes. */
const DESCRIPTION_DEPTH = 1;
const LITERAL_DEPTH = 16;

interface MemoEntry {
  value: JsonSchema;
  size: number;
  height: number;
}

function clampString(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

export class RefResolver {
  private readonly memo = new Map<string, MemoEntry>();
  private readonly targets = new Map<string, Deref>();
  private readonly open = new Set<string>();
  /** References to objects being inlined right now (what Budget.refDepth bounds). */
  private objectLevels = 0;
  /** Deepest schema level reached by the copy in progress: gives a memoised copy its height. */
  private deepest = 0;

  constructor(
    private readonly root: unknown,
    private readonly warnings: Warnings,
  ) {}

  private warnRef(where: string, ref: string, reason: 'external' | 'missing' | 'chain'): void {
    if (reason === 'external')
      this.warnings.add(where, `External $ref "${clampString(ref, 200)}" was not followed: an import never reads other files or URLs.`);
    else if (reason === 'missing') this.warnings.add(where, `$ref "${clampString(ref, 200)}" points to nothing in this file.`);
    else this.warnings.add(where, `$ref "${clampString(ref, 200)}" starts a chain of references that is too long or loops.`);
  }

  /** The target of a local reference, following $ref -> $ref chains (looked up once per reference). */
  private target(ref: string): Deref {
    let found = this.targets.get(ref);
    if (!found) {
      found = this.follow(ref);
      this.targets.set(ref, found);
    }
    return found;
  }

  private follow(ref: string): Deref {
    let current = ref;
    const seen = new Set<string>();
    for (let hop = 0; hop < IMPORT_LIMITS.maxRefChain; hop += 1) {
      const tokens = parseLocalRef(current);
      if (!tokens) return { ok: false, ref: current, reason: 'external' };
      const value = lookup(this.root, tokens);
      if (value === undefined) return { ok: false, ref: current, reason: 'missing' };
      seen.add(current);
      const next = isObject(value) && typeof value.$ref === 'string' ? value.$ref : null;
      if (next === null) return { ok: true, value, ref: current };
      if (seen.has(next)) return { ok: false, ref: current, reason: 'chain' };
      current = next;
    }
    return { ok: false, ref: current, reason: 'chain' };
  }

  /**
   * A non-schema object (parameter, response, request body, path item, example, security scheme):
   * the object itself, or the object its local $ref points to. Problems are warned at `where`.
   */
  deref(node: unknown, where: string): Deref {
    if (!isObject(node) || typeof node.$ref !== 'string') return { ok: true, value: node, ref: null };
    const result = this.target(node.$ref);
    if (!result.ok && result.reason !== 'circular') this.warnRef(where, result.ref, result.reason);
    return result;
  }

  /** A stored copy of a schema with local references inlined; null when there is none. */
  schema(node: unknown, budget: Budget, where: string): JsonSchema | null {
    if (node === undefined || node === null) return null;
    this.deepest = 0;
    const copy = this.copySchema(node, 0, budget, where);
    return isObject(copy) ? (copy as JsonSchema) : null;
  }

  /** A bounded literal copy of an example or default value (references inside are not followed). */
  value(node: unknown, budget: Budget): unknown {
    return this.copyLiteral(node, 0, budget);
  }

  private truncated(budget: Budget, reason: 'depth' | 'size', ref?: string): Obj {
    budget.truncations += 1;
    budget.remaining -= 1;
    return ref ? { 'x-truncated': reason, 'x-ref': ref } : { 'x-truncated': reason };
  }

  private copyRef(ref: string, siblings: Obj, depth: number, budget: Budget, where: string): unknown {
    if (this.open.has(ref)) {
      budget.remaining -= 1;
      return { 'x-circular': ref };
    }
    const target = this.target(ref);
    let resolved: unknown;
    if (!target.ok) {
      if (target.reason !== 'circular') this.warnRef(where, target.ref, target.reason);
      budget.remaining -= 1;
      resolved = { 'x-unresolved-ref': ref };
    } else {
      // Only references to objects with properties count as a level: an array or a composition
      // wrapper (Pets = array of Pet) is kept together with what it wraps.
      const level = Number.isFinite(budget.refDepth) && isObject(target.value) && isObject(target.value.properties);
      const levelsLeft = budget.refDepth - this.objectLevels;
      if (level && levelsLeft <= 0) {
        budget.remaining -= 1;
        return { 'x-ref': ref, 'x-truncated': 'depth' };
      }
      // A copy depends on how many reference levels it may still inline, and on leanness.
      const key = `${budget.lean ? 'L' : ''}${Number.isFinite(levelsLeft) ? levelsLeft : ''}|${ref}`;
      const memo = this.memo.get(key);
      if (memo && memo.size <= budget.remaining && depth + memo.height <= IMPORT_LIMITS.maxSchemaDepth) {
        budget.remaining -= memo.size;
        if (depth + memo.height > this.deepest) this.deepest = depth + memo.height;
        resolved = memo.value;
      } else {
        this.open.add(ref);
        if (level) this.objectLevels += 1;
        const before = budget.remaining;
        const cuts = budget.truncations;
        const outer = this.deepest;
        this.deepest = depth;
        try {
          resolved = this.copySchema(target.value, depth, budget, where, true);
        } finally {
          this.open.delete(ref);
          if (level) this.objectLevels -= 1;
        }
        const height = this.deepest - depth;
        if (outer > this.deepest) this.deepest = outer;
        if (budget.truncations === cuts && isObject(resolved))
          this.memo.set(key, { value: resolved as JsonSchema, size: before - budget.remaining, height });
      }
    }
    const extra = Object.keys(siblings).filter((k) => k !== '$ref');
    if (!extra.length || !isObject(resolved)) return resolved;
    // OpenAPI 3.1 applies keywords next to $ref; for 3.0 they are descriptions at most.
    const own = this.copySchemaObject(siblings, depth, budget, where);
    return { ...resolved, ...own };
  }

  private copySchema(node: unknown, depth: number, budget: Budget, where: string, viaRef = false): unknown {
    if (typeof node === 'boolean') {
      budget.remaining -= 1;
      return node ? {} : { not: {} };
    }
    if (!isObject(node)) {
      budget.remaining -= 1;
      return {};
    }
    if (depth >= IMPORT_LIMITS.maxSchemaDepth) return this.truncated(budget, 'depth', typeof node.$ref === 'string' ? node.$ref : undefined);
    if (budget.remaining <= 0) return this.truncated(budget, 'size', typeof node.$ref === 'string' ? node.$ref : undefined);
    if (!viaRef && typeof node.$ref === 'string') return this.copyRef(node.$ref, node, depth, budget, where);
    if (viaRef && typeof node.$ref === 'string') {
      // target() already followed the chain; a $ref left here is one it could not follow.
      budget.remaining -= 1;
      return { 'x-unresolved-ref': node.$ref };
    }
    return this.copySchemaObject(node, depth, budget, where);
  }

  private copySchemaObject(node: Obj, depth: number, budget: Budget, where: string): Obj {
    const out: Obj = {};
    if (depth > this.deepest) this.deepest = depth;
    budget.remaining -= 1;
    for (const key of Object.keys(node)) {
      if (budget.remaining <= 0) {
        budget.truncations += 1;
        out['x-truncated'] = 'size';
        break;
      }
      const v = node[key];
      if (SCHEMA_MAPS.has(key)) {
        if (!isObject(v)) continue;
        const map: Obj = {};
        budget.remaining -= 1;
        for (const name of Object.keys(v)) {
          if (budget.remaining <= 0) {
            budget.truncations += 1;
            map['x-truncated'] = 'size';
            break;
          }
          put(map, name, this.copySchema(v[name], depth + 1, budget, where));
        }
        out[key] = map;
      } else if (SCHEMA_ONE.has(key)) {
        if (key === 'items' && Array.isArray(v)) {
          out[key] = this.copySchemaList(v, depth, budget, where);
        } else if (typeof v === 'boolean' && (key === 'additionalProperties' || key.startsWith('unevaluated'))) {
          budget.remaining -= 1;
          out[key] = v;
        } else if (isObject(v) || typeof v === 'boolean') {
          out[key] = this.copySchema(v, depth + 1, budget, where);
        }
      } else if (SCHEMA_LISTS.has(key)) {
        if (Array.isArray(v)) out[key] = this.copySchemaList(v, depth, budget, where);
      } else if (budget.lean && LEAN_DROPS.has(key)) {
        continue;
      } else if (key === 'description') {
        if (typeof v === 'string' && depth <= DESCRIPTION_DEPTH) {
          budget.remaining -= 1;
          out[key] = clampString(v, DESCRIPTION_MAX);
        }
      } else if (LITERALS.has(key)) {
        out[key] = this.copyLiteral(v, 0, budget);
      }
    }
    return out;
  }

  private copySchemaList(list: unknown[], depth: number, budget: Budget, where: string): unknown[] {
    const out: unknown[] = [];
    budget.remaining -= 1;
    for (const item of list) {
      if (budget.remaining <= 0) {
        budget.truncations += 1;
        out.push({ 'x-truncated': 'size' });
        break;
      }
      out.push(this.copySchema(item, depth + 1, budget, where));
    }
    return out;
  }

  private copyLiteral(v: unknown, depth: number, budget: Budget): unknown {
    budget.remaining -= 1;
    if (typeof v === 'string') return v.length > IMPORT_LIMITS.maxStoredString ? clampString(v, IMPORT_LIMITS.maxStoredString) : v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (typeof v === 'boolean' || v === null) return v;
    if (v === undefined || typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol') return null;
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
    if (depth >= LITERAL_DEPTH) {
      budget.truncations += 1;
      return { 'x-truncated': 'depth' };
    }
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const item of v) {
        if (budget.remaining <= 0) {
          budget.truncations += 1;
          break;
        }
        out.push(this.copyLiteral(item, depth + 1, budget));
      }
      return out;
    }
    if (!isObject(v)) return null;
    const out: Obj = {};
    for (const key of Object.keys(v)) {
      if (budget.remaining <= 0) {
        budget.truncations += 1;
        out['x-truncated'] = 'size';
        break;
      }
      if (!hasOwn(v, key)) continue;
      put(out, key, this.copyLiteral(v[key], depth + 1, budget));
    }
    return out;
  }
}
