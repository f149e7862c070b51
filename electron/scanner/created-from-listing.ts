// A create whose answer carries no id ({"status": "success"}) is found again in the collection's
// listing, read as the same identity: the entry whose fields hold the unique values the create sent
// (the scan fills unique strings) is the new object, and its id is the one the answer left out.

import { idIn, listItems } from './resources';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The sent body's string values that only this create can have carried: those holding `unique` (or, without one, long enough to be the scan's). */
export function uniqueValuesSent(body: unknown, unique: string | null): string[] {
  if (!isObj(body)) return [];
  return Object.values(body).filter((v): v is string => typeof v === 'string' && (unique ? v.includes(unique) : v.length >= 10));
}

/**
 * The id of the listing entry whose top-level values include every unique value sent; null when no
 * entry, or more than one, matches (an entry of someone else's that repeats the value proves nothing).
 */
export function idFromListing(listing: unknown, values: readonly string[], collection: string | null): string | null {
  if (!values.length) return null;
  const matches = (listItems(listing) ?? []).filter((it) => isObj(it) && values.every((v) => Object.values(it).some((x) => x === v)));
  if (matches.length !== 1) return null;
  return idIn(matches[0], null, collection);
}
