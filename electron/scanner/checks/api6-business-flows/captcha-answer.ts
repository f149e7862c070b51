// API6:2023: a human-verification challenge (CAPTCHA) served with its own answer. The route that hands
// out the challenge puts the expected answer in the same JSON beside the question, so any script reads
// it and passes the check that was meant to keep the flow behind it (sign-up, feedback, reset) for people.

import type { Endpoint } from '../../../../shared/contract';
import { AS_KEY1, type Exchange } from '../../http/exchange';
import { asAnswered } from '../../proof';
import { defineCheck, describeEndpoint, withPrivileges } from '../common/helpers';
import { isObj } from '../common/objects';
import { OWASP_API6 } from '../common/references';

/** A path literal or operation that names a human-verification challenge. */
const CHALLENGE_ROUTE = /(^|[^a-z])(re-?)?(captchas?|challenges?)([^a-z]|$)/i;
/** Fields that hold the expected answer. */
export const ANSWER_FIELD = /^(captcha_?)?(answers?|solutions?|results?|expected(_?(answer|value|result))?|(captcha_?)?code)$/i;
/**
 * The answer of a text challenge, told by its name alone: no plain result or code, which other "challenge"
 * resources (a fitness challenge's result, a challenge's code name) carry as data of their own.
 */
const TEXT_ANSWER_FIELD = /^(captcha_?)?(answers?|solutions?|expected(_?(answer|value|result|text))?)$|^captcha_?(code|text|value)$/i;
/** Fields that carry the question of a text challenge (the distorted text, an image, a riddle). */
const QUESTION_FIELD = /^(captcha|question|challenge|expression|puzzle|prompt|riddle|text|image|img|svg|picture|data)$/i;
export const ID_FIELD = /(^id$|^ID$|_id$|Id$|token$|key$)/;
/** An arithmetic question: small integers joined by + - * / (spaces and "x" as the multiplication sign allowed). */
const ARITHMETIC = /^\s*-?\d{1,6}(\s*[-+*/x×÷]\s*-?\d{1,6}){1,6}\s*(=\s*\??)?\s*$/i;

const routeText = (e: Pick<Endpoint, 'path' | 'operation_id'>) =>
  `${e.path.split('/').filter((s) => s && !s.includes('{')).slice(-2).join(' ')} ${(e.operation_id ?? '').replace(/([a-z])([A-Z])/g, '$1 $2')}`;

export function captchaRoute(e: Pick<Endpoint, 'path' | 'operation_id'>): boolean {
  return CHALLENGE_ROUTE.test(routeText(e));
}

/** The route says CAPTCHA itself, not only "challenge" (a word other resources use too). */
export const namesCaptcha = (e: Pick<Endpoint, 'path' | 'operation_id'>) => /captcha/i.test(routeText(e));

/**
 * The value of an arithmetic expression of small integers and + - * / with the usual precedence, or
 * null for anything else (letters, parentheses, a division by zero). One pass over the tokens: no eval.
 */
export function evaluateArithmetic(text: string): number | null {
  if (!ARITHMETIC.test(text)) return null;
  const expr = text.replace(/=\s*\??\s*$/, '').replace(/[x×]/gi, '*').replace(/÷/g, '/');
  const tokens = expr.match(/\d+|[-+*/]/g);
  if (!tokens) return null;
  // Terms are summed, factors multiply into the current term: "2 - 3 * 4" is 2 + (-3 * 4).
  const terms: number[] = [];
  let term = 0;
  let pending = '+';
  let negate = false;
  let expectNumber = true;
  for (const tok of tokens) {
    if (/^\d+$/.test(tok)) {
      const n = negate ? -Number(tok) : Number(tok);
      negate = false;
      if (pending === '+') term = n;
      else if (pending === '-') term = -n;
      else if (pending === '*') term *= n;
      else if (n === 0) return null;
      else term /= n;
      expectNumber = false;
    } else if (expectNumber) {
      // A unary minus before a number ("3 * -2"); any other operator here is malformed.
      if (tok !== '-' || negate) return null;
      negate = true;
    } else {
      if (tok === '+' || tok === '-') terms.push(term);
      pending = tok;
      expectNumber = true;
    }
  }
  if (expectNumber) return null;
  terms.push(term);
  return terms.reduce((a, b) => a + b, 0);
}

/** A number or a numeric string as a number. */
function numeric(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return null;
}

const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number';

/** The challenge object: the JSON answer itself, or the one object it wraps ({"data": {...}}). */
export function challengeObject(ex: Pick<Exchange, 'json'>): Record<string, unknown> | null {
  return challengeAt(ex)?.obj ?? null;
}

/** The challenge object and the member of the answer that wraps it ("data"), null when the answer is the object. */
export function challengeAt(ex: Pick<Exchange, 'json'>): { obj: Record<string, unknown>; wrapper: string | null } | null {
  const body = ex.json();
  if (!isObj(body)) return null;
  const keys = Object.keys(body);
  if (keys.length === 1 && isObj(body[keys[0]!])) return { obj: body[keys[0]!] as Record<string, unknown>, wrapper: keys[0]! };
  return { obj: body as Record<string, unknown>, wrapper: null };
}

export interface LeakedAnswer {
  kind: 'arithmetic' | 'text';
  answerField: string;
  answer: string | number;
  /** The question's field (the expression or the text challenge), if any. */
  questionField: string | null;
  question: string | number | null;
  idField: string | null;
  id: string | number | null;
}

/**
 * The answer a challenge hands out: an answer-like field whose value is the arithmetic question's own
 * value, or (for a text challenge on a route that says CAPTCHA, or with a field named captcha) an
 * answer-named field beside a question or an id field.
 */
export function leakedAnswer(obj: Record<string, unknown>, captchaNamed: boolean): LeakedAnswer | null {
  const entries = Object.entries(obj).filter(([, v]) => scalar(v)) as [string, string | number][];
  const answers = entries.filter(([k, v]) => ANSWER_FIELD.test(k) && String(v).trim() !== '');
  if (!answers.length) return null;
  const id = entries.find(([k]) => ID_FIELD.test(k) && !ANSWER_FIELD.test(k)) ?? null;
  const arithmetic = entries.map(([k, v]) => [k, v, typeof v === 'string' ? evaluateArithmetic(v) : null] as const).filter(([, , x]) => x !== null);
  if (arithmetic.length) {
    for (const [qk, qv, value] of arithmetic) {
      const hit = answers.find(([ak, av]) => ak !== qk && numeric(av) !== null && Math.abs(numeric(av)! - value!) < 1e-9);
      if (hit) return { kind: 'arithmetic', answerField: hit[0], answer: hit[1], questionField: qk, question: qv, idField: id?.[0] ?? null, id: id?.[1] ?? null };
    }
    // An arithmetic question whose answer-like field holds something else is not handing out the answer.
    return null;
  }
  const question = entries.find(([k]) => QUESTION_FIELD.test(k) && !ANSWER_FIELD.test(k)) ?? null;
  if (!question && !id) return null;
  if (!captchaNamed && !entries.some(([k]) => /captcha/i.test(k))) return null;
  const text = answers.find(([k]) => TEXT_ANSWER_FIELD.test(k));
  if (!text) return null;
  const [ak, av] = text;
  return { kind: 'text', answerField: ak, answer: av, questionField: question?.[0] ?? null, question: question?.[1] ?? null, idField: id?.[0] ?? null, id: id?.[1] ?? null };
}

const show = (v: unknown) => JSON.stringify(v);

function describeLeak(l: LeakedAnswer): string {
  const q = l.questionField ? `${l.questionField}=${show(l.question)}` : null;
  const id = l.idField ? `${l.idField}=${show(l.id)}` : null;
  return `${l.answerField}=${show(l.answer)} beside ${[q, id].filter(Boolean).join(' and ')}`;
}

export const captchaAnswerExposed = defineCheck({
  id: 'api6-captcha-answer-exposed',
  title: 'CAPTCHA answer handed to the client',
  flag: 'UABF',
  owasp: 'API6:2023',
  cwe: 'CWE-804',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 1,
  needsKey2: false,
  techniques: ['API6.captcha-answer-exposed'],
  description:
    'GETs whose path or operation names a human-verification challenge (captcha, challenge) are read as key 1 (the baseline) and once more. ' +
    'Finding: the JSON answer holds the expected answer beside the question — a field named answer, solution, result, expected or code ' +
    'whose value is the arithmetic question\'s own value (computed by a small evaluator of integers and + - * /), or, for a text challenge, ' +
    'an answer, solution or expected field beside a question or id field where the route or a field says captcha. The second read tells whether each request gets a fresh challenge whose answer moves with ' +
    'it. The finding also says whether the challenge is arithmetic, which a script solves even without the leak.',
  coverage:
    'Only JSON answers with the challenge at the top level (or wrapped in one object); a challenge served as an image, or an answer kept in ' +
    'a signed or encrypted token, is not read. A text challenge is judged by its field names alone, and only where the route or a field ' +
    'says captcha ("challenge" alone names other things too).',
  remediation:
    'Keep the expected answer on the server (in the session or a server-side store keyed by the challenge id) and send only the question; ' +
    'make each challenge single-use and short-lived, and prefer a challenge a script cannot compute (not plain arithmetic) or a ' +
    'maintained CAPTCHA service, with rate limits on the flow it guards.',
  references: [OWASP_API6, 'https://cwe.mitre.org/data/definitions/804.html'],
  appliesTo: (e) => e.flags.includes('UABF') && e.method === 'GET' && captchaRoute(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const baseline = await ctx.baseline('key1');
    const request = await ctx.baselineRequest(ep, 'key1');
    if (!baseline?.ok || !request) return;
    const first = challengeObject(baseline);
    const captchaNamed = namesCaptcha(ep);
    const leak = first && leakedAnswer(first, captchaNamed);
    if (!leak) return;
    const again = ctx.budgetLeft() > 0 ? await ctx.sendPrepared(request, AS_KEY1) : null;
    const secondObj = again?.ok ? challengeObject(again) : null;
    const second = secondObj ? leakedAnswer(secondObj, captchaNamed) : null;
    const changed = !!second && (second.question !== leak.question || second.id !== leak.id);
    const fresh = !second
      ? 'A second read did not hand out an answer again.'
      : changed
        ? `A second read got a fresh challenge (${describeLeak(second)}): the answer comes with every challenge.`
        : 'A second read got the same challenge and answer: it can also be replayed.';
    const arithmetic =
      leak.kind === 'arithmetic'
        ? `The challenge is arithmetic (${show(leak.question)}): a script computes it even without the leaked answer.`
        : 'The challenge is not arithmetic; the answer-like field is judged by its name beside the question.';
    yield {
      parameter: leak.answerField,
      // A text challenge's answer is told by its field name alone; an arithmetic one by its value.
      confidence: leak.kind === 'text' ? 'medium' : 'high',
      cvss: withPrivileges(ctx, 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:L/A:N'),
      description:
        `${describeEndpoint(ep)} serves a CAPTCHA challenge with its expected answer in the same JSON answer (${describeLeak(leak)}` +
        `${leak.kind === 'arithmetic' ? `, and ${show(leak.question)} is ${show(leak.answer)}` : ''}). Any script reads the answer and ` +
        `passes the check, so the flow the challenge guards can be automated. ${arithmetic}`,
      notes: [fresh],
      exchanges: [
        { label: 'Baseline: the challenge', exchange: baseline },
        ...(again ? [{ label: 'A second challenge', exchange: again }] : []),
      ],
      reproduce: baseline,
      // The answer field beside the question; its value and the question change with every challenge.
      proof: { marker: asAnswered(baseline, JSON.stringify(leak.answerField)) ?? undefined },
    };
  },
});
