// The detection floor on a real third-party API (issue 16): VAmPI scanned through the CLI in both
// modes finds at least as many of its documented flaws as the last benchmark recorded
// (bench/results/detect.json, written by `npm run bench -- detect`), and raises no false alarm at
// low or above in either mode. Skipped where ../shared (VAmPI and its scorer) is absent.

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DETECT_RESULT, detectAvailable, detectVampi, type DetectMode, type DetectRun } from '../helpers/detect';

interface Recorded {
  figures: Record<DetectMode, { found: number; total: number }>;
}

const recorded = (): Recorded => JSON.parse(fs.readFileSync(DETECT_RESULT, 'utf8')) as Recorded;

function explain(r: DetectRun): string {
  const rows = r.summary.rows.filter((x) => x.role === 'required').map((x) => `${x.id} ${x.status}`);
  const fas = r.summary.falseAlarms.map((fa) => `${fa.severity} ${fa.where} "${fa.name}" (${r.findings[fa.index]?.check_id})`);
  return `found ${r.summary.found}/${r.summary.total}: ${rows.join(', ')}\nfalse alarms: ${fas.join('; ') || 'none'}`;
}

/**
 * One scan; a second when the first falls short of the floor. VAmPI has races of its own (an
 * unauthenticated GET /createdb resets its database for everyone) that can cost one flaw in a run;
 * a regression in the scanner loses it in both.
 */
async function bestOfTwo(mode: DetectMode, floor: number): Promise<DetectRun> {
  const first = await detectVampi(mode);
  if (first.status === 'completed' && first.summary.found >= floor && first.summary.false === 0) return first;
  const second = await detectVampi(mode);
  return second.summary.found - second.summary.false > first.summary.found - first.summary.false ? second : first;
}

describe.runIf(detectAvailable())('detection on VAmPI, through the CLI', () => {
  for (const mode of ['vulnerable', 'secure'] as const) {
    it(`${mode} mode: no fewer flaws found than recorded, no false alarm at low or above`, async () => {
      const floor = recorded().figures[mode].found;
      const r = await bestOfTwo(mode, floor);
      expect(r.status, r.failureReason ?? '').toBe('completed');
      expect(r.summary.problems).toEqual([]);
      expect(r.summary.found, explain(r)).toBeGreaterThanOrEqual(floor);
      expect(r.summary.false, explain(r)).toBe(0);
    }, 240_000);
  }
});
