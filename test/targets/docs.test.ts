// docs/test-targets.md carries the generated flaw table; run with UPDATE_DOCS=1 to rewrite it.

import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { flawTable, TABLE_END, TABLE_START } from './docs';

const file = path.resolve(import.meta.dirname, '../../docs/test-targets.md');

it('docs/test-targets.md lists every flaw as flaws.ts describes it', () => {
  const text = fs.readFileSync(file, 'utf8');
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  expect(start, 'table markers missing').toBeGreaterThanOrEqual(0);
  const current = text.slice(start, end + TABLE_END.length);
  if (process.env.UPDATE_DOCS === '1' && current !== flawTable()) {
    fs.writeFileSync(file, text.slice(0, start) + flawTable() + text.slice(end + TABLE_END.length));
    return;
  }
  expect(current, 'run UPDATE_DOCS=1 npx vitest run test/targets/docs.test.ts').toBe(flawTable());
});
