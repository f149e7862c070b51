// Writes the scan filled from a fresh challenge (a CAPTCHA, challenge-fill.ts) replay only with a fresh
// challenge of the reader's own: the id and answer the scan sent are spent. A finding's curl text fetches
// one just before each such write, reads its id and answer into shell variables (jq), and the write's
// body takes them. A handed-out answer is read as is; an arithmetic question is worked out by the shell
// only after a check that it is nothing but digits and + - * / — an API's text never runs as a command
// (a shell's arithmetic can run commands hidden in a variable name or an array index).

import type { LabelledExchange } from './evidence';
import type { ChallengeUse, Exchange } from './http/exchange';

export const CHALLENGE_LABEL = 'Setup: fetch a fresh challenge and read its id and answer';

/**
 * The steps with the challenge fetch of each filled write just before it; the proving request alone
 * becomes a sequence when it was filled. Null (one request proves it) when nothing was.
 */
export function withChallengeSteps(steps: LabelledExchange[] | null, reproduce: Exchange, exchanges: readonly LabelledExchange[]): LabelledExchange[] | null {
  const list = steps ?? [{ label: exchanges.find((x) => x.exchange.seq === reproduce.seq)?.label ?? 'The request', exchange: reproduce }];
  const fetches = list.flatMap((s) => (s.exchange.request.challenge ? [{ label: CHALLENGE_LABEL, exchange: s.exchange.request.challenge.exchange }] : []));
  if (!fetches.length) return steps;
  const seen = new Set<number>();
  return [...list, ...fetches].filter((x) => !seen.has(x.exchange.seq) && (seen.add(x.exchange.seq), true)).sort((a, b) => a.exchange.seq - b.exchange.seq);
}

/** The challenge uses of the steps' writes, by the seq of the exchange that fetched each challenge. */
export function challengeFetches(steps: readonly LabelledExchange[]): Map<number, ChallengeUse> {
  return new Map(steps.flatMap((s) => (s.exchange.request.challenge ? [[s.exchange.request.challenge.exchange.seq, s.exchange.request.challenge] as const] : [])));
}

/** What a filled write's body puts in place of each member the challenge filled: shell words that expand a variable. */
export type ChallengeWords = Map<string, string>;

/**
 * The lines of a challenge fetch: the fetch (`fetchCurl`, printing the answer's body), each value read
 * into a variable named by `name`, and the words the write's body uses for each filled member.
 */
export function challengeLines(use: ChallengeUse, fetchCurl: string, name: (key: string) => string): { lines: string[]; words: ChallengeWords } {
  const answer = name('challenge');
  const lines = [`${answer}=$(${fetchCurl}); echo "$${answer}"`];
  const words: ChallengeWords = new Map();
  const jsonVar = (filter: string, type: 'string' | 'number', key: string, source: unknown): string => {
    const v = name(key);
    const cast = typeof source === type ? '' : type === 'number' ? ' | tonumber' : ' | tostring';
    lines.push(`${v}=$(jq -c '${filter}${cast}' <<<"$${answer}")`);
    return v;
  };
  const computed = use.answer.how === 'computed' ? computedAnswer(use, answer, name, lines) : null;
  for (const f of use.fields) {
    if (f.takes === 'id') words.set(f.key, `'"$${jsonVar(use.id.filter, f.type, f.key, use.id.value)}"'`);
    else if (computed) words.set(f.key, f.type === 'number' ? `'"$${computed}"'` : `"'"$${computed}"'"`);
    else words.set(f.key, `'"$${jsonVar(use.answer.filter, f.type, f.key, use.answer.value)}"'`);
  }
  return { lines, words };
}

/** The lines that work out an arithmetic question (checked first: digits and + - * / only); returns the answer's variable. */
function computedAnswer(use: ChallengeUse, answer: string, name: (key: string) => string, lines: string[]): string {
  const q = name('question');
  const v = name('answer');
  lines.push(`${q}=$(jq -r '${use.answer.filter}' <<<"$${answer}")`);
  const text = typeof use.answer.value === 'string' ? use.answer.value : '';
  // The forms the scan's evaluator reads besides + - * /: "6 x 7", "6 × 7", "8 ÷ 2", a trailing "= ?".
  if (/[x×]/i.test(text)) lines.push(`${q}=\${${q}//[xX]/*}; ${q}=\${${q}//×/*}`);
  if (/÷/.test(text)) lines.push(`${q}=\${${q}//÷//}`);
  if (/=/.test(text)) lines.push(`${q}=\${${q}%%=*}`);
  lines.push(
    `# The shell works the question out only when it is digits and + - * / (the API's text never runs as a command).`,
    `ARITHMETIC='^[-0-9 +*/]+$'; [[ $${q} =~ $ARITHMETIC ]] || { echo "Not an arithmetic question: $${q}" >&2; exit 1; }`,
    `${v}=$(( $${q} ))`,
  );
  return v;
}

const SENTINEL = (i: number) => `__PORTCULLIS_CHALLENGE_FIELD_${i}__`;

/**
 * A filled write's body as shell words: `quote` quotes the body (its secrets as variables), and each
 * member the challenge filled takes the words that expand its variable. Null when the body is not the
 * JSON object the filler wrote.
 */
export function challengeBody(body: string, words: ChallengeWords, quote: (text: string) => string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const obj = { ...(parsed as Record<string, unknown>) };
  const keys = [...words.keys()].filter((k) => k in obj);
  keys.forEach((k, i) => {
    obj[k] = SENTINEL(i);
  });
  let quoted = quote(JSON.stringify(obj));
  keys.forEach((k, i) => {
    quoted = quoted.split(JSON.stringify(SENTINEL(i))).join(words.get(k)!);
  });
  return quoted;
}
