// A feedback form guarded by an arithmetic challenge, written the way small apps write one: GET
// /api/v2/feedback/challenge makes a question ("7 + 3 * 2"), keeps it by id, and also sends the
// expected answer along so the form can check it on the client (captcha-answer-leak). POST
// /api/v2/feedback takes {challengeId, answer, message} and accepts a correct answer once.
// Hardened: the answer stays on the server; the answer sends only the id and the question.

import { randomInt, randomUUID } from 'node:crypto';
import type { Ctx, TargetState } from '../context';
import { HttpError, json, type Router } from '../http';
import { SCHEMAS } from '../schemas';

const MAX_PENDING = 500;

export function registerFeedback(r: Router<Ctx>, t: TargetState): void {
  /** Pending challenges by id, oldest first (a bounded map: old ones drop off). */
  const pending = new Map<string, number>();
  const posted: { id: number; message: string }[] = [];

  r.get('/api/v2/feedback/challenge', () => {
    const [a, b, c] = [randomInt(1, 10), randomInt(1, 10), randomInt(1, 10)];
    const question = `${a} + ${b} * ${c}`;
    const answer = a + b * c;
    const challengeId = randomUUID();
    pending.set(challengeId, answer);
    if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
    return json(200, t.has('captcha-answer-leak') ? { challengeId, question, answer: String(answer) } : { challengeId, question });
  });

  r.post('/api/v2/feedback', (ctx) => {
    const { challengeId, answer, message } = ctx.input<{ challengeId: string; answer: string; message: string }>(SCHEMAS.FeedbackPost);
    const expected = pending.get(challengeId);
    pending.delete(challengeId);
    if (expected === undefined || String(expected) !== answer.trim()) throw new HttpError(400, 'wrong_answer', 'The answer to the challenge is wrong. Ask for a new challenge and try again.');
    const item = { id: posted.length + 1, message };
    posted.push(item);
    return json(201, item);
  });
}
