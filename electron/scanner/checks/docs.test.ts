// docs/checks.md is generated from the registry: this fails when the committed file is stale
// (`npm run docs:checks` rewrites it; so does UPDATE_DOCS=1 with this test).

import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { checksDoc } from './docs';
import { CHECKS } from './index';

const file = path.resolve(import.meta.dirname, '../../../docs/checks.md');

it('docs/checks.md describes every registered check as the registry does', () => {
  const expected = checksDoc(CHECKS);
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (process.env.UPDATE_DOCS === '1' && current !== expected) {
    fs.writeFileSync(file, expected);
    return;
  }
  expect(current, 'docs/checks.md is stale: run npm run docs:checks').toBe(expected);
  for (const c of CHECKS) expect(current).toContain(`### \`${c.id}\``);
});
