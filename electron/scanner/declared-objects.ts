// Objects the user says an identity owns (`objects:` in the scan configuration, shared/identities.ts):
// for APIs where the scan cannot create its own, they are that identity's objects to read, and with
// `writes: existing` to write and delete. Matching is by path template, so every operation on the
// object's path and below it (/feedbacks/{id}/comments) finds them; an id named in a query or body
// (orderId) finds the objects of the path whose parameter or collection gives it that name.

import type { OwnedObjects } from '../../shared/identities';

/** Where the parameter sits: the path's own, or an id a query or body carries. */
export interface DeclaredParam {
  name: string;
  in: 'path' | 'query' | 'body';
}

const GENERIC_ID = /^(id|_id|uuid|guid|key|pk)$/i;

/** "/users/{}/posts/{}": the template with its parameter names blanked, without a trailing slash. */
function blank(path: string): string {
  return path.replace(/\{[^}]+\}/g, '{}').replace(/\/+$/, '') || '/';
}

/** The endpoint's path up to and including the segment of parameter `name` (blanked), or null. */
function prefixThrough(path: string, name: string): string | null {
  const segs = path.split('/');
  const i = segs.findIndex((s) => s.includes(`{${name}}`));
  return i < 0 ? null : blank(segs.slice(0, i + 1).join('/'));
}

const squash = (s: string) => s.replace(/[-_]/g, '').toLowerCase();

function singular(word: string): string {
  if (/ies$/i.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us)$/i.test(word)) return word;
  return word.replace(/s$/i, '');
}

/** The names a query or body field gives an object of this path: its parameter ("orderId"), or "<collection>Id" ("/orders/{id}" -> orderId). */
function namesOf(template: string): string[] {
  const segs = template.split('/').filter(Boolean);
  const last = segs[segs.length - 1] ?? '';
  const param = /^\{([^}]+)\}$/.exec(last)?.[1];
  const collection = segs[segs.length - 2];
  const out: string[] = [];
  if (param && !GENERIC_ID.test(param)) out.push(squash(param));
  if (param && collection && !collection.includes('{')) out.push(squash(`${singular(collection)}id`));
  return out;
}

/**
 * The ids an identity declared for this parameter of this endpoint, in the order given; [] when it
 * declared none. A path parameter takes the ids of the declared path whose template matches the
 * endpoint's path up to that parameter; a query or body id takes them by name.
 */
export function declaredIds(objects: OwnedObjects | undefined, endpointPath: string, param: DeclaredParam): string[] {
  if (!objects) return [];
  const out: string[] = [];
  const prefix = param.in === 'path' ? prefixThrough(endpointPath, param.name) : null;
  for (const [template, ids] of Object.entries(objects)) {
    const matches = param.in === 'path' ? prefix !== null && blank(template) === prefix : !GENERIC_ID.test(param.name) && namesOf(template).includes(squash(param.name));
    if (matches) for (const id of ids) if (!out.includes(id)) out.push(id);
  }
  return out;
}

/** Every declared path with no operation of the API at or below it: the user named something the spec does not have. */
export function unmatchedPaths(objects: OwnedObjects | undefined, endpointPaths: readonly string[]): string[] {
  if (!objects) return [];
  const blanked = endpointPaths.map(blank);
  return Object.keys(objects).filter((t) => {
    const b = blank(t);
    return !blanked.some((p) => p === b || p.startsWith(`${b}/`));
  });
}
