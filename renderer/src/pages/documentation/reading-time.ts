// A guide's reading time (issue 31, item 6): counted from its words, never typed by hand, so a guide
// that grows or shrinks shows the time it now takes.

import { isValidElement, type ReactNode } from 'react';

/** Words a reader gets through in a minute of technical prose. */
export const WORDS_PER_MINUTE = 200;

/**
 * The text a React tree shows: its strings and numbers, in order, without rendering any component.
 * Adjacent strings run together as on screen; an element's edges count as a space (a guide never
 * splits a word across tags).
 */
export function textOf(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isValidElement<{ children?: ReactNode }>(node)) return ` ${textOf(node.props.children)} `;
  return '';
}

/** Words of a text: runs between whitespace holding a letter or a digit (a lone "→" or "(" is not read). */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Whole minutes at WORDS_PER_MINUTE, at least one. */
export function readMinutes(words: number): number {
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}
