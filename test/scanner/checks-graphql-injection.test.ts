// Injection through GraphQL arguments (issue 20): SQL, NoSQL and OS command injection found on the
// GraphQL target's vulnerable operations (the payload in one argument's variable, the answer read from
// errors[], the field's data, or the time it took), and silence on the hardened twin.

import { describe, expect, it } from 'vitest';
import {
  graphqlCommandInjection,
  graphqlNosqlInjection,
  graphqlSqlInjection,
} from '../../electron/scanner/checks/api8-misconfiguration/graphql-injection';
import type { Check } from '../../electron/scanner/checks/types';
import { scanGraphqlChecks } from '../helpers/graphql-check-scan';
import { expectGraphqlFinding, graphqlTargets } from '../helpers/graphql-check-tests';

const CHECKS: Check[] = [graphqlSqlInjection, graphqlNosqlInjection, graphqlCommandInjection];
/** The target's operations each flaw lives in, and their arguments (docs/test-targets.md, "GraphQL target"). */
const OPS = { sql: 'Query.searchBooks', nosql: 'Query.findMembers', command: 'Mutation.checkMirror' };
const ARGS = { sql: 'title', nosql: 'filter', command: 'host' };

const target = graphqlTargets();

describe('GraphQL injection checks', () => {
  it('find SQL, NoSQL and OS command injection through arguments on the vulnerable target', async () => {
    const t = await target('vulnerable');
    const s = await scanGraphqlChecks(t, CHECKS, { only: Object.values(OPS) });
    expect(s.outcome.status).toBe('completed');
    const sql = s.of(graphqlSqlInjection);
    expect(sql).toHaveLength(1);
    expectGraphqlFinding(sql[0], OPS.sql, ARGS.sql);
    const nosql = s.of(graphqlNosqlInjection);
    expect(nosql).toHaveLength(1);
    expectGraphqlFinding(nosql[0], OPS.nosql, ARGS.nosql);
    const cmd = s.of(graphqlCommandInjection);
    expect(cmd).toHaveLength(1);
    expectGraphqlFinding(cmd[0], OPS.command, ARGS.command);
    for (const c of CHECKS) expect(s.sent(c)).toBeLessThanOrEqual(c.budget * Object.keys(OPS).length);
  }, 40_000);

  it('stay silent on the hardened twin', async () => {
    const t = await target('hardened');
    const s = await scanGraphqlChecks(t, CHECKS, { only: Object.values(OPS) });
    expect(s.outcome.status).toBe('completed');
    expect(s.findings).toEqual([]);
  }, 40_000);
});
