// shared/check-titles.ts names checks on screens that cannot import the registry: it must say what the
// registry says, for every check (`npm run docs:checks` rewrites it).

import { expect, it } from 'vitest';
import { CHECKS } from '../../electron/scanner/checks/index';
import { CHECK_TITLES } from '../../shared/check-titles';

it('shared/check-titles.ts has the title of every registered check, and no other', () => {
  const registry = Object.fromEntries(CHECKS.map((c) => [c.id, c.title]));
  expect(CHECK_TITLES, 'shared/check-titles.ts is stale: run npm run docs:checks').toEqual(registry);
});
