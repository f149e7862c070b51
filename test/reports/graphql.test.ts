// GraphQL findings in the reports (issue 20): the stored operation, query and variables reach the
// technical PDF (read back with pdftotext), the JSON export (`graphql`), SARIF (the result's message
// and properties), the HTML export and JUnit; REST findings carry no GraphQL part.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonReport } from '../../electron/reports/export/json';
import { loadReportInput } from '../../electron/reports/loader';
import type { ReportInput } from '../../electron/reports/model';
import { renderReport } from '../../electron/reports/render';
import type { OpenedStore } from '../../electron/store/database';
import type { FindingGraphql } from '../../shared/contract';
import { seedReportFixture, type Fixture } from '../helpers/report-fixture';
import { flat, openReportStore, pdfFile, pdfText, removeReportStore } from '../helpers/report-files';

const LOAN: FindingGraphql = {
  operation: 'Query.loanRecord',
  query: 'query LoanRecord($id: ID!) {\n  loanRecord(id: $id) {\n    id\n    borrowerEmail\n  }\n}',
  variables: '{\n  "id": "loan-7731"\n}',
  batch: null,
};
const LOGIN: FindingGraphql = {
  operation: 'Mutation.signInMember',
  query: 'mutation SignInMember($code: String!) {\n  signInMember(code: $code) {\n    token\n  }\n}',
  variables: null,
  batch: 25,
};

let dir: string;
let store: OpenedStore;
let fx: Fixture;
let input: ReportInput;
let gqlIds: string[];

const render = async (type: 'json' | 'sarif' | 'html' | 'junit') => (await renderReport(input, type, { timeZone: 'UTC' })).body.toString('utf8');

beforeAll(async () => {
  ({ dir, store } = await openReportStore('portcullis-graphql-report-'));
  fx = await seedReportFixture(store.db, { findings: 6, history: 0 });
  // Two findings become GraphQL ones, stored as the scan engine stores them (the findings.graphql column).
  gqlIds = [fx.findings[0]!.id, fx.findings[1]!.id];
  for (const [id, part] of [
    [gqlIds[0]!, LOAN],
    [gqlIds[1]!, LOGIN],
  ] as const) {
    await store.db.updateTable('findings').set({ graphql: JSON.stringify(part), method: 'POST', path: '/graphql' }).where('id', '=', id).execute();
  }
  input = (await loadReportInput(store.db, fx.scanId))!;
}, 60_000);

afterAll(() => removeReportStore(dir, store));

describe('GraphQL findings in reports', () => {
  it('are read from the store with their GraphQL part', () => {
    const byId = new Map(input.findings.map((f) => [f.id, f]));
    expect(byId.get(gqlIds[0]!)!.graphql).toEqual(LOAN);
    expect(byId.get(gqlIds[1]!)!.graphql).toEqual(LOGIN);
    expect(input.findings.filter((f) => f.graphql)).toHaveLength(2);
  });

  it('show the operation, query and variables in the technical PDF', async () => {
    const pdf = (await renderReport(input, 'technical', { timeZone: 'UTC' })).body;
    const text = flat(pdfText(pdfFile(dir, 'technical.pdf', pdf)));
    expect(text).toContain('Query.loanRecord');
    expect(text).toContain('Mutation.signInMember');
    expect(text).toContain('loanRecord(id: $id) {');
    expect(text).toContain('borrowerEmail');
    expect(text).toContain('"id": "loan-7731"');
    expect(text).toContain('Batch of 25 operations');
    expect(text).toContain('signInMember(code: $code)');
  }, 60_000);

  it('carry `graphql` in the JSON export, null for REST findings', async () => {
    const doc = JSON.parse(await render('json')) as JsonReport;
    const byId = new Map(doc.findings.map((f) => [f.id, f]));
    expect(byId.get(gqlIds[0]!)!.graphql).toEqual(LOAN);
    expect(byId.get(gqlIds[1]!)!.graphql).toEqual(LOGIN);
    expect(doc.findings.filter((f) => f.graphql === null)).toHaveLength(doc.findings.length - 2);
  });

  it('name the operation in the SARIF result and carry the query in its properties', async () => {
    const doc = JSON.parse(await render('sarif')) as {
      runs: { results: { message: { text: string }; locations: { logicalLocations: { name: string }[] }[]; properties: Record<string, unknown> }[] }[];
    };
    const result = doc.runs[0]!.results.find((r) => r.properties.finding_id === gqlIds[0]);
    expect(result!.message.text).toContain('at Query.loanRecord (POST /graphql)');
    expect(result!.locations[0]!.logicalLocations[0]!.name).toBe('Query.loanRecord (POST /graphql)');
    expect(result!.properties).toMatchObject({ graphql_operation: 'Query.loanRecord', graphql_query: LOAN.query, graphql_variables: LOAN.variables });
    const rest = doc.runs[0]!.results.find((r) => !gqlIds.includes(r.properties.finding_id as string));
    expect(rest!.properties).not.toHaveProperty('graphql_operation');
  });

  it('show the operation and the query in the HTML and JUnit exports', async () => {
    const html = await render('html');
    expect(html).toContain('<code>Query.loanRecord</code>');
    expect(html).toContain('loanRecord(id: $id) {');
    expect(html).toContain('Batch of 25 operations.');
    const junit = await render('junit');
    expect(junit).toContain('GraphQL operation: Mutation.signInMember (batch of 25)');
    expect(junit).toContain('loanRecord(id: $id) {');
  });
});
