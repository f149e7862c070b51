// What the GraphQL check tests share: GraphQL targets started for one test file and closed after its
// tests, and the assertions every GraphQL finding passes.

import { afterAll, expect } from 'vitest';
import type { BuiltFinding } from '../../electron/scanner/findings';
// test/targets/graphql.ts (the REST target's small GraphQL route) shadows the folder: name its index.
import { startGraphqlTarget, type GraphqlFlawId, type GraphqlTarget, type GraphqlTargetMode } from '../targets/graphql/index';

export type StartGraphqlTarget = (mode: GraphqlTargetMode, flaws?: Partial<Record<GraphqlFlawId, boolean>>) => Promise<GraphqlTarget>;

/** Call at a test file's top level: returns a starter whose targets all close after the file's tests. */
export function graphqlTargets(): StartGraphqlTarget {
  const started: GraphqlTarget[] = [];
  afterAll(async () => {
    await Promise.all(started.splice(0).map((t) => t.close()));
  });
  return async (mode, flaws = {}) => {
    const t = await startGraphqlTarget({ mode, flaws });
    started.push(t);
    return t;
  };
}

/** A finding on a GraphQL operation: found, on that argument, with the operation named and a 200 POST as proof. */
export function expectGraphqlFinding(f: BuiltFinding | undefined, operation: string, parameter: string | null): void {
  expect(f).toBeDefined();
  expect(f!.parameter).toBe(parameter);
  expect(f!.description).toContain(operation);
  expect(f!.graphql?.operation).toBe(operation);
  // A comment may come first (an out-of-band proof says what to set).
  expect(f!.curl).toMatch(/^curl -i -X POST /m);
  expect(f!.curl).toContain('graphql');
  expect(f!.evidence).toMatch(/< HTTP 200/);
}
