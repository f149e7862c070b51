import { describe, expect, it } from 'vitest';
import { captchaRoute, evaluateArithmetic, leakedAnswer } from './captcha-answer';

describe('evaluateArithmetic', () => {
  it.each([
    ['3+4', 7],
    ['5*3+1', 16],
    ['2 - 3 * 4', -10],
    ['10 / 4', 2.5],
    ['8 - 2 - 1', 5],
    ['3 * -2', -6],
    ['6 x 7 = ?', 42],
    ['9*9-10+3', 74],
  ])('computes %s as %s', (text, value) => {
    expect(evaluateArithmetic(text)).toBe(value);
  });

  it.each(['7', 'hello', '2+', '(1+2)*3', '1/0', 'process.exit()', '2 ** 3', '1e3+1', '', '3 + + 4'])('refuses %j', (text) => {
    expect(evaluateArithmetic(text)).toBeNull();
  });
});

describe('leakedAnswer', () => {
  it('finds an answer field holding the arithmetic question\'s value', () => {
    expect(leakedAnswer({ captchaId: 3, captcha: '5*3+1', answer: '16' }, false)).toMatchObject({ kind: 'arithmetic', answerField: 'answer', questionField: 'captcha', idField: 'captchaId' });
  });
  it('is silent when the answer-like field holds something else, or there is none', () => {
    expect(leakedAnswer({ id: 'c1', question: '5*3+1', result: 'pending' }, true)).toBeNull();
    expect(leakedAnswer({ id: 'c1', question: '5*3+1' }, true)).toBeNull();
    expect(leakedAnswer({ id: 'c1', question: 'What is 2+2?', expires_in: 300 }, true)).toBeNull();
  });
  it('finds the answer of a text challenge beside its question or id', () => {
    expect(leakedAnswer({ challenge_id: 'k9', image: 'data:image/png;base64,AAA', solution: 'xk7qp' }, true)).toMatchObject({ kind: 'text', answerField: 'solution', idField: 'challenge_id' });
    expect(leakedAnswer({ captchaId: 'k9', image: '<svg/>', answer: 'xk7qp' }, false)).toMatchObject({ kind: 'text', answerField: 'answer' });
    expect(leakedAnswer({ solution: 'xk7qp' }, true)).toBeNull();
  });
  it('leaves other "challenge" resources alone: a result or code of their own, or no word captcha', () => {
    expect(leakedAnswer({ id: 7, text: 'Run 5 km this week', result: 'completed' }, true)).toBeNull();
    expect(leakedAnswer({ id: 7, text: 'Run 5 km', code: 'RUN5K' }, true)).toBeNull();
    expect(leakedAnswer({ id: 7, question: 'Name the capital of France', answer: 'Paris' }, false)).toBeNull();
  });
});

describe('captchaRoute', () => {
  it('names challenge routes by their path or operation', () => {
    expect(captchaRoute({ path: '/rest/captcha', operation_id: null })).toBe(true);
    expect(captchaRoute({ path: '/api/v2/feedback/challenge', operation_id: null })).toBe(true);
    expect(captchaRoute({ path: '/x', operation_id: 'getCaptcha' })).toBe(true);
    expect(captchaRoute({ path: '/products/{id}', operation_id: 'getProduct' })).toBe(false);
  });
});
