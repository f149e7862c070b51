// A CAPTCHA served with its own answer (API6) on the Acme target: found on the challenge route of the
// feedback form when the answer comes along, silent on the hardened twin, within its budget.

import { afterEach, describe, expect, it } from 'vitest';
import { captchaAnswerExposed } from '../../electron/scanner/checks/api6-business-flows/captcha-answer';
import { scanChecks, type CheckScan } from '../helpers/check-scan';
import { onlyFlaws, startTarget, type Target } from '../targets';
import { expectWithinBudget } from './check-harness';

const targets: Target[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});

async function scanChallenge(flaws: ReturnType<typeof onlyFlaws>): Promise<CheckScan> {
  const t = await startTarget({ mode: 'hardened', flaws });
  targets.push(t);
  const s = await scanChecks(t, [captchaAnswerExposed], { only: ['GET /feedback/challenge', 'POST /feedback'] });
  expect(s.outcome.status, s.outcome.failureReason ?? '').toBe('completed');
  expectWithinBudget(s, [captchaAnswerExposed]);
  return s;
}

describe('api6-captcha-answer-exposed', () => {
  it('finds the challenge route that hands out its answer (captcha-answer-leak)', async () => {
    const s = await scanChallenge(onlyFlaws('captcha-answer-leak'));
    const found = s.of(captchaAnswerExposed);
    expect(found.map((f) => [f.method, f.path, f.parameter, f.confidence])).toEqual([['GET', '/feedback/challenge', 'answer', 'high']]);
    expect(found[0]!.description).toMatch(/answer="\d+" beside question="\d \+ \d \* \d" and challengeId=/);
    expect(found[0]!.description).toContain('The challenge is arithmetic');
    expect(found[0]!.evidence).toContain('A second challenge');
    expect(found[0]!.evidence).toContain('got a fresh challenge');
  });

  it('is silent on the hardened twin, which sends only the question', async () => {
    const s = await scanChallenge({});
    expect(s.of(captchaAnswerExposed)).toEqual([]);
    expect(s.outcome.checksRun.find((r) => r.check_id === captchaAnswerExposed.id)?.endpoints.length).toBe(1);
  });
});
