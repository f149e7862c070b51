// The operation documents of a GraphQL import (issue 20): the selection set of a returned type (leaf
// fields to a bounded depth, inline fragments for interfaces and unions), the response shape it asks for
// as a JSON Schema, and the shortest field cycle of a type. Selections are memoised per type and level,
// so a schema with thousands of fields imports in one pass over each type.

import {
  GraphQLEnumType,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLUnionType,
  isRequiredArgument,
  type GraphQLCompositeType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';
import type { JsonSchema } from '../../shared/contract';
import { MAX_TYPE_WRAPPERS, namedOf, outputLeafSchema, wrappersOf } from './graphql-types-to-schema';
import { put } from './values';

/** Levels of objects a selection descends (the returned type is level 1). */
export const MAX_SELECTION_LEVELS = 3;
/** Leaf fields selected per type. */
const MAX_LEAVES = 30;
/** Fields (at all levels) one selection holds at most. */
const MAX_SELECTION_FIELDS = 150;
/** Possible types an interface or union selection spells out with inline fragments. */
const MAX_FRAGMENTS = 8;
/** Longest field cycle looked for, and types visited looking. */
const MAX_CYCLE_LENGTH = 6;
const MAX_CYCLE_VISITS = 300;

/** A selection set: its lines (indented for its place), how many fields it holds, the shape it asks for. */
export interface Selection {
  /** Newline-terminated lines. */
  text: string;
  size: number;
  /** Only `__typename`: the type had nothing else to select here. */
  bare: boolean;
  /** The response object the selection asks for (properties of the selected fields). */
  schema: JsonSchema;
}

type FieldsType = GraphQLObjectType | GraphQLInterfaceType;

// Plain `instanceof` on the one graphql-js the importer loads: its is*Type() helpers also look for a second
// copy of the library each time they answer no, which made up a third of a large import's time.
const isFieldsType = (t: GraphQLType): t is FieldsType => t instanceof GraphQLObjectType || t instanceof GraphQLInterfaceType;
const isAbstract = (t: GraphQLType): t is GraphQLInterfaceType | GraphQLUnionType => t instanceof GraphQLInterfaceType || t instanceof GraphQLUnionType;

/** What selections and cycles need of a field, worked out once per type. */
interface FieldFacts {
  name: string;
  type: GraphQLOutputType;
  printed: string;
  named: GraphQLNamedType;
  leaf: boolean;
  /** The named type is an object, interface or union. */
  composite: boolean;
}

const indentOf = (n: number): string => '  '.repeat(n);

/** Wraps a named type's schema in the field type's lists ("[Paste!]!" -> array of Paste). */
export function outputSchema(type: GraphQLOutputType, named: JsonSchema): JsonSchema {
  const inner = type instanceof GraphQLNonNull ? type.ofType : type;
  if (inner instanceof GraphQLList) return { type: 'array', items: outputSchema(inner.ofType as GraphQLOutputType, named), 'x-graphql-type': String(type) };
  return named;
}

/** Selections of one schema: memoised per (type, level, indentation). */
export class SelectionBuilder {
  private readonly cache = new Map<string, Selection>();
  private readonly cycles = new Map<string, string[] | null>();
  private readonly facts = new Map<string, FieldFacts[]>();

  constructor(private readonly schema: GraphQLSchema) {}

  /** The fields of a type that can be selected without arguments (none of theirs is required). */
  private fieldsOf(type: FieldsType): FieldFacts[] {
    let hit = this.facts.get(type.name);
    if (!hit) {
      hit = [];
      for (const f of Object.values(type.getFields())) {
        if (f.args.some(isRequiredArgument) || wrappersOf(f.type) > MAX_TYPE_WRAPPERS) continue;
        const named = namedOf(f.type);
        const leaf = named instanceof GraphQLScalarType || named instanceof GraphQLEnumType;
        hit.push({ name: f.name, type: f.type, printed: String(f.type), named, leaf, composite: !leaf && (isFieldsType(named) || named instanceof GraphQLUnionType) });
      }
      this.facts.set(type.name, hit);
    }
    return hit;
  }

  /** The selection of a composite type at `level` (1 = the returned type), its lines at `indent`. */
  selection(type: GraphQLCompositeType, level: number, indent: number): Selection {
    const key = `${type.name}\u0000${level}\u0000${indent}`;
    let hit = this.cache.get(key);
    if (!hit) {
      hit = this.build(type, level, indent);
      this.cache.set(key, hit);
    }
    return hit;
  }

  private build(type: GraphQLCompositeType, level: number, indent: number): Selection {
    const lines: string[] = [];
    const properties: Record<string, unknown> = {};
    const pad = indentOf(indent);
    let size = 0;
    const abstract = isAbstract(type);
    if (abstract) {
      lines.push(`${pad}__typename\n`);
      put(properties, '__typename', { type: 'string' });
    }
    const taken = new Map<string, string>();
    if (isFieldsType(type)) size += this.addFields(type, level, indent, lines, properties, taken, new Set(), MAX_SELECTION_FIELDS);
    if (abstract) {
      // Fields an interface declares are selected once, above; a fragment adds what the type has of its own.
      const declared = new Set(type instanceof GraphQLInterfaceType ? Object.keys(type.getFields()) : []);
      const possibleTypes = this.schema.getPossibleTypes(type).slice(0, MAX_FRAGMENTS);
      for (const [i, possible] of possibleTypes.entries()) {
        if (size >= MAX_SELECTION_FIELDS) break;
        // Each possible type gets its share of the room left, so the first one cannot crowd out the others.
        const share = Math.floor((MAX_SELECTION_FIELDS - size) / (possibleTypes.length - i));
        const inner: string[] = [];
        const added = this.addFields(possible, level, indent + 1, inner, properties, taken, declared, share);
        if (!added) continue;
        lines.push(`${pad}... on ${possible.name} {\n`, ...inner, `${pad}}\n`);
        size += added;
      }
    }
    const bare = size === 0;
    if (bare && !abstract) {
      lines.push(`${pad}__typename\n`);
      put(properties, '__typename', { type: 'string' });
    }
    return { text: lines.join(''), size, bare, schema: { type: 'object', properties, 'x-graphql-type': type.name } };
  }

  /**
   * Adds the selectable fields of a type (leaves first, then objects while the selection has room) and
   * returns how many fields were added. `taken` holds the response names already used in this selection
   * set with their types: fragments of an abstract selection may not ask for one name with two types.
   */
  private addFields(
    type: FieldsType,
    level: number,
    indent: number,
    lines: string[],
    properties: Record<string, unknown>,
    taken: Map<string, string>,
    skip: Set<string>,
    room: number,
  ): number {
    const pad = indentOf(indent);
    const fields = this.fieldsOf(type).filter((f) => !skip.has(f.name));
    const fits = (f: FieldFacts): boolean => {
      const before = taken.get(f.name);
      return before === undefined || before === f.printed;
    };
    let added = 0;
    let leaves = 0;
    for (const f of fields) {
      if (leaves >= MAX_LEAVES || added >= room) break;
      if (!f.leaf || !fits(f)) continue;
      if (!taken.has(f.name)) {
        taken.set(f.name, f.printed);
        put(properties, f.name, outputSchema(f.type, outputLeafSchema(f.named)));
      }
      lines.push(`${pad}${f.name}\n`);
      leaves += 1;
      added += 1;
    }
    if (level >= MAX_SELECTION_LEVELS) return added;
    for (const f of fields) {
      if (!f.composite || !fits(f)) continue;
      const child = this.selection(f.named as GraphQLCompositeType, level + 1, indent + 1);
      // An object with nothing of its own to select below the top adds only noise.
      if (child.bare || added + child.size + 1 > room) continue;
      if (!taken.has(f.name)) {
        taken.set(f.name, f.printed);
        put(properties, f.name, outputSchema(f.type, child.schema));
      }
      lines.push(`${pad}${f.name} {\n`, child.text, `${pad}}\n`);
      added += child.size + 1;
    }
    return added;
  }

  /**
   * The shortest list of fields without required arguments leading from a type back to itself
   * (["owner", "pastes"]), breadth first and bounded; null when there is none.
   */
  cycle(type: GraphQLCompositeType): string[] | null {
    if (!isFieldsType(type)) return null;
    if (this.cycles.has(type.name)) return this.cycles.get(type.name)!;
    const found = this.findCycle(type);
    this.cycles.set(type.name, found);
    return found;
  }

  private findCycle(start: FieldsType): string[] | null {
    const seen = new Set<string>([start.name]);
    let frontier: { type: FieldsType; path: string[] }[] = [{ type: start, path: [] }];
    for (let length = 1; length <= MAX_CYCLE_LENGTH && frontier.length; length += 1) {
      const next: typeof frontier = [];
      for (const { type, path } of frontier) {
        for (const f of this.fieldsOf(type)) {
          const named = f.named;
          if (!isFieldsType(named)) continue;
          if (named.name === start.name) return [...path, f.name];
          if (seen.has(named.name) || seen.size >= MAX_CYCLE_VISITS) continue;
          seen.add(named.name);
          next.push({ type: named, path: [...path, f.name] });
        }
      }
      frontier = next;
    }
    return null;
  }
}
