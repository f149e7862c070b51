// The shell variables a finding's curl text reads and does not set itself: what the reader exports
// before running it (keys, tokens and passwords of the scan's identities), listed beside the command.

const COMMENT_LINE = /^\s*#.*$/gm;
// Inside single quotes the shell expands nothing (and a single-quoted word holds no quote).
const SINGLE_QUOTED = /'[^']*'/g;
const READ = /\$\{?([A-Za-z_][A-Za-z0-9_]*)/g;
const ASSIGNED = /(?:^|[\s;(])([A-Za-z_][A-Za-z0-9_]*)=/gm;

/** The variables `curl` reads that none of its own lines assign, in the order they first appear. */
export function curlVariables(curl: string): string[] {
  const code = curl.replace(COMMENT_LINE, '').replace(SINGLE_QUOTED, "''");
  const assigned = new Set([...code.matchAll(ASSIGNED)].map((m) => m[1]!));
  const out: string[] = [];
  for (const m of code.matchAll(READ)) if (!assigned.has(m[1]!) && !out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

/** "Set first: PORTCULLIS_KEY_1, PORTCULLIS_ALICE_PASSWORD." for a report, or null when the command needs none. */
export function curlVariablesLine(curl: string): string | null {
  const names = curlVariables(curl);
  return names.length ? `Set first (export these shell variables, with your own values): ${names.join(', ')}.` : null;
}
