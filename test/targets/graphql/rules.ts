// The hardened twin's extra validation rules (query depth, aliases per field) and the message
// clean-up that removes graphql-js's "Did you mean ...?" hints.

import { type ASTVisitor, type FragmentDefinitionNode, GraphQLError, Kind, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

export const MAX_DEPTH = 8;
export const MAX_ALIASES = 10;
export const MAX_BATCH = 5;
export const MAX_TOKENS = 1500;

/** The flaw of fragment-cycles: fields counted through fragment spreads with no memory of the open ones. */
function naiveFieldCount(ctx: ValidationContext, set: SelectionSetNode): number {
  let n = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) n += 1 + (sel.selectionSet ? naiveFieldCount(ctx, sel.selectionSet) : 0);
    else if (sel.kind === Kind.INLINE_FRAGMENT) n += naiveFieldCount(ctx, sel.selectionSet);
    else {
      const frag = ctx.getFragment(sel.name.value);
      if (frag) n += naiveFieldCount(ctx, frag.selectionSet);
    }
  }
  return n;
}

/** A field-count limit written without cycle detection (a cycle overflows the stack). */
export function naiveFieldCountRule(max = 10_000): ValidationRule {
  return (ctx: ValidationContext): ASTVisitor => ({
    OperationDefinition(node) {
      if (naiveFieldCount(ctx, node.selectionSet) > max) ctx.reportError(new GraphQLError(`The operation selects more than ${max} fields.`, { nodes: [node] }));
    },
  });
}

/** Depth of a selection set: a leaf field counts 1; introspection fields (__schema, __type, __typename) are not counted. */
function depthOf(ctx: ValidationContext, set: SelectionSetNode, memo: Map<string, number>, open: Set<string>): number {
  let max = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith('__')) continue;
      max = Math.max(max, 1 + (sel.selectionSet ? depthOf(ctx, sel.selectionSet, memo, open) : 0));
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      max = Math.max(max, depthOf(ctx, sel.selectionSet, memo, open));
    } else {
      const name = sel.name.value;
      // A fragment cycle is reported by NoFragmentCyclesRule; here it only must not loop.
      if (open.has(name)) continue;
      let d = memo.get(name);
      if (d === undefined) {
        const frag: FragmentDefinitionNode | null | undefined = ctx.getFragment(name);
        if (!frag) continue;
        open.add(name);
        d = depthOf(ctx, frag.selectionSet, memo, open);
        open.delete(name);
        memo.set(name, d);
      }
      max = Math.max(max, d);
    }
  }
  return max;
}

/** Refuses an operation deeper than `max` before anything executes. */
export function maxDepthRule(max = MAX_DEPTH): ValidationRule {
  return (ctx: ValidationContext): ASTVisitor => ({
    OperationDefinition(node) {
      const depth = depthOf(ctx, node.selectionSet, new Map(), new Set());
      if (depth > max) {
        ctx.reportError(new GraphQLError(`Query depth ${depth} exceeds the maximum depth of ${max}.`, { nodes: [node], extensions: { code: 'QUERY_TOO_DEEP' } }));
      }
    },
  });
}

/** Field names requested in a selection set, fragments flattened (aliases are how one field is requested many times). */
function countFields(ctx: ValidationContext, set: SelectionSetNode, counts: Map<string, number>, open: Set<string>): void {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) counts.set(sel.name.value, (counts.get(sel.name.value) ?? 0) + 1);
    else if (sel.kind === Kind.INLINE_FRAGMENT) countFields(ctx, sel.selectionSet, counts, open);
    else if (!open.has(sel.name.value)) {
      const frag = ctx.getFragment(sel.name.value);
      if (!frag) continue;
      open.add(sel.name.value);
      countFields(ctx, frag.selectionSet, counts, open);
      open.delete(sel.name.value);
    }
  }
}

/** Refuses a selection set that requests one field more than `max` times (alias amplification). */
export function maxAliasesRule(max = MAX_ALIASES): ValidationRule {
  return (ctx: ValidationContext): ASTVisitor => ({
    SelectionSet(node) {
      const counts = new Map<string, number>();
      countFields(ctx, node, counts, new Set());
      for (const [name, n] of counts) {
        if (n > max) {
          ctx.reportError(new GraphQLError(`Field "${name}" is requested ${n} times in one selection set; at most ${max} aliases are allowed.`, { nodes: [node], extensions: { code: 'TOO_MANY_ALIASES' } }));
          return;
        }
      }
    },
  });
}

/** Removes the "Did you mean ...?" hints graphql-js adds to validation and coercion errors. */
export function withoutSuggestions(message: string): string {
  return message.replace(/ ?Did you mean [^?]*\?/g, '').trim();
}
