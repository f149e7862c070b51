// A path that never loses its end: when it is too long for its place, the middle gives way ("/api/v2/…
// /orders/{id}"), so two routes that differ only at the end never look alike; the whole path is its title.

import type { ReactElement } from 'react';

/** The head and the tail that always shows: the last segment, or the last 24 characters of a long one. */
export function splitPath(path: string): { head: string; tail: string } {
  const cut = path.lastIndexOf('/');
  const at = cut > 0 ? cut : 0;
  const tail = path.slice(at);
  if (tail.length <= 24 || at === 0) return { head: path.slice(0, at), tail };
  return { head: path.slice(0, path.length - 24), tail: path.slice(path.length - 24) };
}

export function PathText({ path, className }: { path: string; className?: string }): ReactElement {
  const { head, tail } = splitPath(path);
  return (
    <span className={`path-text${className ? ` ${className}` : ''}`} title={path}>
      <span className="path-text-head">{head}</span>
      <span className="path-text-tail">{tail}</span>
    </span>
  );
}
