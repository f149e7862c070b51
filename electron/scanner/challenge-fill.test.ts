import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../shared/contract';
import { ChallengeFiller, fillBody, solveChallenge } from './challenge-fill';
import type { ProbeRequest } from './http/engine';
import { Exchange } from './http/exchange';

const write = (properties: Record<string, unknown>): Endpoint =>
  ({ id: 'w', method: 'POST', path: '/feedback', parameters: [], request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties } } }) as unknown as Endpoint;

describe('solveChallenge', () => {
  it('takes the answer a challenge hands out, with its id and the names a body may use for it', () => {
    expect(solveChallenge({ captchaId: 3, captcha: '5*3-1', answer: '14' }, true)).toMatchObject({ idField: 'captchaId', id: 3, answerFields: ['captcha', 'answer'], answer: '14', how: 'leaked' });
  });
  it('works out an arithmetic question when the answer stays on the server', () => {
    expect(solveChallenge({ challengeId: 'c-1', question: '7 + 3 * 2' }, false)).toMatchObject({ idField: 'challengeId', id: 'c-1', answerFields: ['question'], answer: 13, how: 'computed' });
  });
  it('gives up on what a script cannot answer: a picture, a riddle, no id, code in the question', () => {
    expect(solveChallenge({ captchaId: 'k', image: 'data:image/png;base64,AAA' }, true)).toBeNull();
    expect(solveChallenge({ id: 7, question: 'Name the capital of France' }, true)).toBeNull();
    expect(solveChallenge({ question: '7 + 3' }, true)).toBeNull();
    expect(solveChallenge({ id: 7, question: 'process.exit(1)' }, true)).toBeNull();
  });
});

describe('fillBody', () => {
  it('puts the id and the answer into the fields the body has for them, typed as the body holds them', () => {
    const solved = solveChallenge({ captchaId: 9, captcha: '2*4-1', answer: '7' }, true)!;
    const ep = write({ captchaId: { type: 'integer', example: 0 }, captcha: { type: 'string', example: '7' }, comment: { type: 'string' } });
    expect(fillBody(ep, { captchaId: 0, captcha: '7', comment: 'hi', rating: 0 }, solved, false)).toEqual({ captchaId: 9, captcha: '7', comment: 'hi', rating: 0 });
    const computed = solveChallenge({ challengeId: 'c-2', question: '6 x 7' }, false)!;
    const form = write({ challengeId: { type: 'string', example: 'x' }, answer: { type: 'string', example: '1' }, message: { type: 'string' } });
    expect(fillBody(form, { challengeId: 'x', answer: '1', message: 'm' }, computed, false)).toEqual({ challengeId: 'c-2', answer: '42', message: 'm' });
  });
  it('adds the fields under the challenge\'s own names for a write learnt guarded from its refusal, and only then', () => {
    const solved = solveChallenge({ captchaId: 4, captcha: '3 * 5 - 2' }, true)!;
    expect(fillBody(write({}), { rating: 4 }, solved, true)).toEqual({ rating: 4, captchaId: 4, captcha: '13' });
    expect(fillBody(write({}), { rating: 4 }, solved, false)).toEqual({ rating: 4 });
  });
  it('leaves a check\'s probe of the challenge\'s own fields as the check made it', () => {
    const solved = solveChallenge({ captchaId: 4, captcha: '3 * 5 - 2' }, true)!;
    const ep = write({ captchaId: { type: 'integer', example: 1, maximum: 1000 }, captcha: { type: 'string', example: '10', maxLength: 20 } });
    const long = 'A'.repeat(200);
    expect(fillBody(ep, { captchaId: 1, captcha: long }, solved, false)).toEqual({ captchaId: 4, captcha: long });
    expect(fillBody(ep, { captchaId: 10001, captcha: "1' OR '1'='1" }, solved, false)).toEqual({ captchaId: 10001, captcha: "1' OR '1'='1" });
    expect(fillBody(ep, { captchaId: 1, captcha: 'portcullis-k3' }, solved, false)).toEqual({ captchaId: 4, captcha: '13' });
  });
});

describe('ChallengeFiller', () => {
  const get = (id: string, path: string) => ({ id, method: 'GET', path, parameters: [], request_body: null, operation_id: null }) as unknown as Endpoint;
  const answer = (op: string, path: string, body: unknown) =>
    new Exchange(1, { method: 'GET', url: `http://api.test${path}`, headers: {}, body: null, auth: { kind: 'none' }, placements: [], operation: op }, { status: 200, headers: {}, body: JSON.stringify(body), bytes: 10, truncated: false }, null, 1);

  it('learns an unnamed route from an answer that hands out an arithmetic challenge, but not one with a bare id (a quiz, a calculator)', async () => {
    const sent: ProbeRequest[] = [];
    const quiz = get('q', '/quiz/next');
    const verify = get('v', '/human/verify');
    const post = { ...write({ id: { type: 'integer' }, token: { type: 'string' }, answer: { type: 'string' }, text: { type: 'string' } }), id: 'p' } as Endpoint;
    const filler = new ChallengeFiller({
      endpoints: [quiz, verify, post],
      base: (p) => new URL(p, 'http://api.test/'),
      send: (r) => {
        sent.push(r);
        return Promise.resolve(answer('v', '/human/verify', { token: `t${sent.length}`, question: '2 + 3', answer: '5' }));
      },
    });
    const req = (body: unknown): ProbeRequest => ({ method: 'POST', url: 'http://api.test/feedback', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), operation: 'p' });
    filler.observe(answer('q', '/quiz/next', { id: 4, question: '2 + 3', answer: '5' }));
    expect(await filler.fill(req({ id: 4, answer: '1', text: 'x' }))).toBeNull();
    expect(sent).toEqual([]);
    filler.observe(answer('v', '/human/verify', { token: 't0', question: '2 + 3', answer: '5' }));
    const filled = await filler.fill(req({ token: 'portcullis', answer: 'portcullis', text: 'x' }));
    expect(JSON.parse(filled!.body!)).toEqual({ token: 't1', answer: '5', text: 'x' });
    expect(filled!.challenge).toMatchObject({ route: 'GET /human/verify', id: { filter: '.token' }, answer: { filter: '.answer', how: 'leaked' } });
    expect(filled!.challenge!.fields).toEqual([
      { key: 'token', takes: 'id', type: 'string' },
      { key: 'answer', takes: 'answer', type: 'string' },
    ]);
    expect(sent.map((r) => `${r.method} ${String(r.url)}`)).toEqual(['GET http://api.test/human/verify']);
  });
});
