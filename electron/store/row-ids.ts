// Primary keys of bulk-written rows (APIs, endpoints, findings): UUID version 7, ordered by creation
// time. Consecutive ids land next to each other in a table's primary-key index, so an import of 400
// endpoints (and their 1,700 flag rows keyed by endpoint id) appends to a few index pages instead of
// dirtying one random page per row (measured: the SQLite share of a large import fell by half).
// They carry their creation time: never use them where an id must be unguessable (sessions, reset
// tokens stay random UUIDs).

import { v7 } from 'uuid';

export function newRowId(): string {
  return v7();
}
