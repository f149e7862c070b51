// Creates that fail validation learn from the answer (create-learning.ts): the test target's support
// tickets need a priority and a contact e-mail its spec does not declare; the scan reads the 422 and
// creates the ticket, so the checks that need an object of the scan's own reach the ticket's reads.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bolaCreateSteal } from '../../electron/scanner/checks/api1-object-authorization/created-objects';
import { startTarget, type Target } from '../targets';
import { SUPPORT_ENDPOINTS, SUPPORT_PRIORITIES } from '../targets/routes/support';
import { endpoint, scanServer } from './check-harness';

let t: Target;
beforeAll(async () => {
  t = await startTarget({ mode: 'hardened', supportTickets: true });
});
afterAll(() => t.close());

describe('a create refused for fields the spec does not declare', () => {
  it('is sent again with the fields the 422 names, and the object it creates is used', async () => {
    const endpoints = SUPPORT_ENDPOINTS.map((e) => endpoint(e.method, e.path, { request_body: e.request_body ? { ...e.request_body, schema: { ...e.request_body.schema } } : null, responses: { ...e.responses } }));
    const since = Date.now();
    const { outcome } = await scanServer(t.baseUrl, endpoints, [bolaCreateSteal], { 1: t.users.alice.key, 2: t.users.bob.key });
    const creates = t.requests.filter({ method: 'POST', path: '/api/v2/support/tickets', since });
    // Each key's first try is refused (422), the second carries what the answer asked for; later creates start with it.
    expect(creates.filter((r) => r.status === 422).length).toBeGreaterThanOrEqual(1);
    const created = creates.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(2);
    for (const r of created) {
      const body = JSON.parse(r.body!) as Record<string, unknown>;
      expect(SUPPORT_PRIORITIES).toContain(body.priority);
      expect(body.contactEmail).toMatch(/^portcullis\.[\w-]+@example\.com$/);
    }
    // The ticket's read addressed the created ticket (a number from 5001), not a made-up id.
    const reads = t.requests.filter({ method: 'GET', path: /^\/api\/v2\/support\/tickets\/\d+$/, since });
    expect(reads.some((r) => r.status === 200)).toBe(true);
    expect(outcome.errors.join('\n')).toMatch(/POST \/support\/tickets refused the scan's create for what its body lacked; from the answer the scan filled .*priority \(one of low, normal, high\).*contactEmail \(email\).* and then created its objects\./);
    // Within a small budget: at most 1 + CREATE_RETRIES tries per object, and no more than a handful in all.
    expect(creates.length).toBeLessThanOrEqual(8);
  });
});
