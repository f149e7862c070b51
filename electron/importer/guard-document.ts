// Checks a parsed document before anything walks it: nesting depth, and for YAML the two things
// aliases can do that JSON cannot — refer to themselves (a cycle) or multiply the document (an
// alias bomb: every *alias is the same object, so a few KB can stand for billions of values).
// Iterative, linear in the number of distinct values.

import { ImportError } from './errors';
import { shortPointer } from './json-pointer';
import { IMPORT_LIMITS } from './limits';
import type { Syntax } from './parse-document';

interface Frame {
  value: object;
  keys: string[] | null;
  index: number;
  depth: number;
  key: string | number | null;
  parent: Frame | null;
  size: number;
  height: number;
}

function tokensOf(frame: Frame | null, extra?: string | number): (string | number)[] {
  const out: (string | number)[] = extra === undefined ? [] : [extra];
  for (let f = frame; f && f.key !== null; f = f.parent) out.push(f.key);
  return out.reverse();
}

export interface DocumentStats {
  /** Values once aliases are expanded. */
  expandedNodes: number;
  distinctNodes: number;
  /** Levels of nested objects and lists. */
  height: number;
}

/**
 * Whether a YAML text can contain aliases: an alias must name an anchor, and an anchor is always
 * written with "&". Without one, js-yaml's own depth limit is all the guarding the tree needs.
 */
export function mayHaveAliases(text: string): boolean {
  return text.includes('&');
}

export function guardDocument(root: unknown, syntax: Syntax): DocumentStats {
  const maxDepth = IMPORT_LIMITS.maxDocumentDepth;
  if (root === null || typeof root !== 'object') return { expandedNodes: 1, distinctNodes: 1, height: 0 };
  // JSON.parse never shares objects, so only YAML needs the memo and the cycle check.
  const shared = syntax === 'yaml';
  const memo = new Map<object, { size: number; height: number }>();
  const open = new Set<object>();
  let distinct = 0;
  const newFrame = (value: object, depth: number, key: string | number | null, parent: Frame | null): Frame => {
    // depth counts from 0: the container at depth `maxDepth` is the (maxDepth + 1)th level.
    if (depth >= maxDepth)
      throw new ImportError(`The file nests deeper than ${maxDepth} levels.`, shortPointer(tokensOf(parent, key ?? undefined)));
    distinct += 1;
    if (shared) open.add(value);
    return { value, keys: Array.isArray(value) ? null : Object.keys(value), index: 0, depth, key, parent, size: 1, height: 1 };
  };
  let top: Frame | null = newFrame(root, 0, null, null);
  let result = { size: 1, height: 1 };
  const limit = () => Math.max(IMPORT_LIMITS.maxExpandedNodes, distinct * IMPORT_LIMITS.maxExpansionRatio);

  while (top) {
    const f: Frame = top;
    const length = f.keys ? f.keys.length : (f.value as unknown[]).length;
    if (f.index < length) {
      const key: string | number = f.keys ? f.keys[f.index]! : f.index;
      f.index += 1;
      const child = (f.value as Record<string | number, unknown>)[key];
      if (child === null || typeof child !== 'object') {
        f.size += 1;
        continue;
      }
      if (shared) {
        if (open.has(child))
          throw new ImportError('A YAML alias refers to a node that contains it (a cycle).', shortPointer(tokensOf(f, key)));
        const known = memo.get(child);
        if (known) {
          if (f.depth + 1 + known.height > maxDepth)
            throw new ImportError(`The file nests deeper than ${maxDepth} levels once its aliases are expanded.`, shortPointer(tokensOf(f, key)));
          f.size += known.size;
          if (known.height + 1 > f.height) f.height = known.height + 1;
          if (f.size > limit())
            throw new ImportError(
              `YAML aliases expand this file to more than ${limit().toLocaleString('en-US')} values; the limit guards against alias bombs.`,
              shortPointer(tokensOf(f, key)),
            );
          continue;
        }
      }
      top = newFrame(child, f.depth + 1, key, f);
      continue;
    }
    // Done with f.
    const done = { size: f.size, height: f.height };
    if (shared) {
      open.delete(f.value);
      memo.set(f.value, done);
    }
    const parent = f.parent;
    if (parent) {
      parent.size += done.size;
      if (done.height + 1 > parent.height) parent.height = done.height + 1;
      if (shared && parent.size > limit())
        throw new ImportError(
          `YAML aliases expand this file to more than ${limit().toLocaleString('en-US')} values; the limit guards against alias bombs.`,
          shortPointer(tokensOf(parent)),
        );
    } else result = done;
    top = parent;
  }
  return { expandedNodes: result.size, distinctNodes: distinct, height: result.height };
}
