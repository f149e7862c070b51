// The identity table the CLI prints after a scan: every identity, and the users the scan registered,
// at most a dozen by name (the checks' own sign-ups may be dozens; findings.json lists them all).

import { describe, expect, it } from 'vitest';
import type { ScanDetails } from '../../shared/contract';
import { identityTable } from './scan';

type Info = ScanDetails['results']['scan_info'];

const info = (users: number): Info =>
  ({
    identities: [{ name: 'alice', role: 'user', obtained: 'static token', verified_as: 'alice (GET /me)', refreshes: 0, failures: 0, created: false }],
    created_users: Array.from({ length: users }, (_, n) => ({ username: `pcs${n}`, email: null, operation: 'POST /signup', purpose: 'key 2' })),
  }) as unknown as Info;

describe('the identity table', () => {
  it('names each registered user when there are few', () => {
    const lines = identityTable(info(2));
    expect(lines).toEqual([
      'Identities:',
      '  alice (user): static token; verified as alice (GET /me); 0 refreshes, 0 failed logins',
      '  registered pcs0 with POST /signup (key 2)',
      '  registered pcs1 with POST /signup (key 2)',
    ]);
  });

  it('names a dozen and counts the rest', () => {
    const lines = identityTable(info(40));
    expect(lines.filter((l) => l.startsWith('  registered '))).toHaveLength(12);
    expect(lines.at(-1)).toBe('  and 28 more users registered by the scan (all listed in findings.json)');
  });
});
