// The flaw matrix: every probe against the vulnerable target, the hardened twin, a target with
// only its flaw on, and a target with every other flaw on. Each run gets fresh targets, so no
// probe sees another's side effects.

import { describe, expect, it } from 'vitest';
import { FLAW_IDS, FLAWS, type FlawId, onlyFlaws, type OwaspCategory } from './flaws';
import { PROBES } from './probes';
import { startTarget, type Target, type TargetOptions } from './target';

async function probeOn(id: FlawId, opts: TargetOptions): Promise<{ shown: boolean; evidence: string; target: Target }> {
  const t = await startTarget({ ...PROBES[id].options, ...opts });
  try {
    const res = await PROBES[id].run(t);
    return { ...res, target: t };
  } finally {
    await t.close();
  }
}

export function flawMatrix(categories: OwaspCategory[]): void {
  for (const id of FLAW_IDS.filter((f) => categories.includes(FLAWS[f].owasp))) {
    describe(`${id} (${FLAWS[id].owasp}: ${FLAWS[id].technique})`, () => {
      it('shows on the vulnerable target', async () => {
        const res = await probeOn(id, { mode: 'vulnerable' });
        expect(res.shown, res.evidence).toBe(true);
      });

      it('does not show on the hardened twin, which answers without an internal error', async () => {
        const res = await probeOn(id, { mode: 'hardened' });
        expect(res.shown, res.evidence).toBe(false);
        expect(res.target.internalErrors.map((e) => e.message)).toEqual([]);
      });

      it('shows with only this flaw on', async () => {
        const res = await probeOn(id, { mode: 'hardened', flaws: onlyFlaws(id) });
        expect(res.shown, res.evidence).toBe(true);
      });

      const overlap = PROBES[id].alsoShownBy ?? [];
      it(`does not show with every other flaw on${overlap.length ? ` (except ${overlap.join(', ')}, which show it by nature)` : ''}`, async () => {
        const off = Object.fromEntries([id, ...overlap].map((f) => [f, false]));
        const res = await probeOn(id, { mode: 'vulnerable', flaws: off });
        expect(res.shown, res.evidence).toBe(false);
      });
    });
  }
}
