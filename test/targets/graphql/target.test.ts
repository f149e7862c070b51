// Each flaw of the GraphQL target is real on the vulnerable target and absent on the hardened twin,
// proved over real HTTP.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyJson, listen, STACK_TRACE } from '../testing';
import { GRAPHQL_FLAW_IDS, GRAPHQL_FLAWS, type GraphqlTarget, type GraphqlTargetOptions, startGraphqlTarget } from '.';

interface Gql {
  status: number;
  headers: Headers;
  json: AnyJson;
  ms: number;
}

async function gql(t: GraphqlTarget, query: string | object[], o: { variables?: object; key?: string; method?: 'GET' | 'POST'; contentType?: string } = {}): Promise<Gql> {
  const headers: Record<string, string> = {};
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  const started = performance.now();
  let res: Response;
  if (o.method === 'GET') {
    const q = new URLSearchParams({ query: query as string });
    if (o.variables) q.set('variables', JSON.stringify(o.variables));
    res = await fetch(`${t.endpoint}?${q}`, { headers });
  } else {
    headers['content-type'] = o.contentType ?? 'application/json';
    res = await fetch(t.endpoint, { method: 'POST', headers, body: JSON.stringify(Array.isArray(query) ? query : { query, variables: o.variables }) });
  }
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined, ms: performance.now() - started };
}

const targets: GraphqlTarget[] = [];
async function start(o: GraphqlTargetOptions): Promise<GraphqlTarget> {
  const t = await startGraphqlTarget(o);
  targets.push(t);
  return t;
}

let v: GraphqlTarget;
let h: GraphqlTarget;
beforeAll(async () => {
  [v, h] = await Promise.all([start({ mode: 'vulnerable' }), start({ mode: 'hardened' })]);
});
afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
});

const messages = (r: Gql): string[] => ((r.json.errors ?? []) as { message: string }[]).map((e) => e.message);

describe('the target', () => {
  it('has the twenty-four flaws, all on when vulnerable and none when hardened', () => {
    expect(GRAPHQL_FLAW_IDS).toHaveLength(24);
    expect(v.flaws.size).toBe(24);
    expect(h.flaws.size).toBe(0);
  });

  it('documents every flaw in docs/test-targets.md', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/test-targets.md'), 'utf8');
    for (const id of GRAPHQL_FLAW_IDS) expect(doc, id).toContain(`| \`${id}\` | ${GRAPHQL_FLAWS[id].owasp} | ${GRAPHQL_FLAWS[id].description.replace(/\|/g, '\\|')} |`);
  });

  it('serves its SDL, introspection JSON, seeded users, public fields and logins in both modes', async () => {
    for (const t of [v, h]) {
      expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(t.sdl).toContain('type Loan');
      expect(t.introspection.__schema.types.some((ty) => ty.name === 'Member')).toBe(true);
      const pub = await gql(t, '{ libraryInfo { name loanDays } books { id title author { name } } book(id: "4") { title } }');
      expect(pub.status).toBe(200);
      expect(pub.json.data.books).toHaveLength(5);
      expect(pub.json.data.book.title).toBe('Guards! Guards!');
      const login = await gql(t, 'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token member { username role } } }', { variables: { u: 'admin', p: t.users.admin.password } });
      expect(login.json.data.login.member).toEqual({ username: 'admin', role: 'ADMIN' });
      const me = await gql(t, '{ me { id username } }', { key: login.json.data.login.token });
      expect(me.json.data.me).toEqual({ id: String(t.users.admin.id), username: 'admin' });
      const reg = await gql(t, 'mutation { register(username: "dora", password: "dora-reads-books", email: "dora@example.test") { token member { role } } }');
      expect(reg.json.data.register.member.role).toBe('MEMBER');
    }
  });
});

describe('introspection', () => {
  const q = '{ __schema { mutationType { fields { name } } } }';
  it('answers on the vulnerable target, admin mutations included', async () => {
    const r = await gql(v, q);
    expect(r.json.data.__schema.mutationType.fields.map((f: { name: string }) => f.name)).toContain('setMemberRole');
  });
  it('fails validation on the hardened twin, while __typename still works', async () => {
    const r = await gql(h, q);
    expect(r.status).toBe(400);
    expect(r.json.data).toBeUndefined();
    expect(messages(r).join()).toMatch(/introspection/i);
    expect((await gql(h, '{ __typename }')).json.data).toEqual({ __typename: 'Query' });
  });
});

describe('field suggestions', () => {
  it('leak field, argument and enum names with introspection off', async () => {
    const t = await start({ mode: 'hardened', flaws: { 'field-suggestions': true } });
    expect((await gql(t, '{ __schema { types { name } } }')).status).toBe(400);
    expect(messages(await gql(t, '{ membrs { id } }'))[0]).toMatch(/Did you mean "members"/);
    expect(messages(await gql(t, '{ book(idd: "1") { title } }')).join()).toMatch(/Did you mean "id"\?/);
    const enumHint = await gql(t, 'mutation { setMemberRole(id: "1", role: ADMN) { id } }', { key: t.users.admin.key });
    expect(messages(enumHint).join()).toMatch(/Did you mean the enum value "ADMIN"\?/);
  });
  it('are cut on the hardened twin', async () => {
    const r = await gql(h, '{ membrs { id } book(idd: "1") { title } }');
    expect(r.status).toBe(400);
    expect(messages(r).join()).toContain('Cannot query field "membrs" on type "Query".');
    expect(messages(r).join()).not.toMatch(/Did you mean/);
  });
});

// books > author > books > ... : 12 levels, each Book.author and Author.books a SQLite query.
const deep = (levels: number): string => {
  let sel = 'title';
  for (let i = levels - 1; i >= 1; i--) sel = i % 2 === 1 ? `books { ${sel} }` : `author { ${sel} }`;
  return `{ ${sel} }`;
};

describe('query depth', () => {
  it('is unbounded on the vulnerable target: a depth-12 query runs hundreds of SQL queries', async () => {
    let before = v.sqlQueries();
    await gql(v, deep(2));
    const shallow = v.sqlQueries() - before;
    before = v.sqlQueries();
    const r = await gql(v, deep(12));
    expect(r.status).toBe(200);
    expect(r.json.errors).toBeUndefined();
    expect(JSON.stringify(r.json.data).length).toBeGreaterThan(20_000);
    expect(shallow).toBeLessThan(10);
    expect(v.sqlQueries() - before).toBeGreaterThan(500);
  });
  it('is refused past 8 on the hardened twin, before anything runs', async () => {
    expect((await gql(h, deep(8))).json.errors).toBeUndefined();
    expect((await gql(h, deep(9))).status).toBe(400);
    const before = h.sqlQueries();
    const r = await gql(h, deep(12));
    expect(r.status).toBe(400);
    expect(messages(r)[0]).toBe('Query depth 12 exceeds the maximum depth of 8.');
    expect(h.sqlQueries()).toBe(before);
    // Fragments do not hide depth.
    const viaFragment = await gql(h, `{ books { ...A } } fragment A on Book { author { books { author { books { author { books { author { books { title } } } } } } } } }`);
    expect(viaFragment.status).toBe(400);
  });
});

describe('aliases and array batches', () => {
  const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `b${i}: book(id: "${(i % 5) + 1}") { title author { name } }`).join(' ')} }`;
  const batch = (n: number) => Array.from({ length: n }, () => ({ query: '{ libraryInfo { name } }' }));
  it('are unbounded on the vulnerable target', async () => {
    const r = await gql(v, aliases(200));
    expect(Object.keys(r.json.data)).toHaveLength(200);
    const b = await gql(v, batch(40));
    expect(b.status).toBe(200);
    expect(b.json).toHaveLength(40);
  });
  it('are capped at 10 aliases of one field and 5 operations per batch on the hardened twin', async () => {
    expect(Object.keys((await gql(h, aliases(10))).json.data)).toHaveLength(10);
    const r = await gql(h, aliases(11));
    expect(r.status).toBe(400);
    expect(messages(r)[0]).toMatch(/"book" is requested 11 times/);
    expect((await gql(h, batch(5))).json).toHaveLength(5);
    const b = await gql(h, batch(6));
    expect(b.status).toBe(400);
    expect(messages(b)[0]).toMatch(/Batch too large/);
  });
});

describe('documents and the IDE', () => {
  const repeated = (n: number) => `{ ${Array.from({ length: n }, () => '__typename').join(' ')} }`;
  const cycle = 'query { ...A } fragment A on Query { __typename ...B } fragment B on Query { __typename ...A }';
  const page = (t: GraphqlTarget, p: string) => fetch(`${t.url}${p}`, { headers: { accept: 'text/html' } });
  it('the vulnerable target runs 3,000 repeated fields, overflows on a fragment cycle and serves GraphiQL', async () => {
    const r = await gql(v, repeated(3000));
    expect([r.status, r.json.data]).toEqual([200, { __typename: 'Query' }]);
    expect((await gql(v, cycle)).status).toBe(500);
    for (const p of ['/graphiql', '/graphql']) {
      const res = await page(v, p);
      expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([200, 'text/html; charset=utf-8', expect.stringContaining('<title>GraphiQL</title>')]);
    }
  });
  it('the hardened twin stops at 1,500 tokens, refuses the cycle at validation and serves no IDE', async () => {
    const r = await gql(h, repeated(3000));
    expect(r.status).toBe(400);
    expect(messages(r)[0]).toMatch(/Document contains more th\w+ 1500 tokens/);
    const c = await gql(h, cycle);
    expect(c.status).toBe(400);
    expect(messages(c)[0]).toMatch(/Cannot spread fragment "A" within itself/);
    expect((await page(h, '/graphiql')).status).toBe(404);
    expect((await page(h, '/graphql')).status).toBe(400);
  });
});

describe('rate limits and batching', () => {
  const verify = (codes: string[]) => `mutation { ${codes.map((c, i) => `v${i}: verifyResetCode(username: "alice", code: "${c}") { success token }`).join(' ')} }`;
  const wrong = (n: number, right: string) => Array.from({ length: n }, (_, i) => String((Number(right) + 1 + i) % 10_000).padStart(4, '0'));

  it('the vulnerable limiter counts requests: 60 code guesses in one request find the code; the 11th request is refused', async () => {
    const t = await start({ mode: 'vulnerable' });
    await gql(t, 'mutation { requestPasswordReset(username: "alice") }');
    const code = t.outbox.at(-1)!.code;
    const r = await gql(t, verify([...wrong(59, code), code]));
    const hits = Object.values(r.json.data as Record<string, { success: boolean; token: string | null }>).filter((x) => x.success);
    expect(hits).toHaveLength(1);
    expect((await gql(t, '{ me { username } }', { key: hits[0]!.token! })).json.data.me.username).toBe('alice');
    // An array batch of logins also counts once.
    const logins = await gql(t, Array.from({ length: 20 }, (_, i) => ({ query: `mutation { login(username: "bob", password: "guess-${i}") { token } }` })));
    expect(logins.json.filter((x: AnyJson) => x.errors[0].extensions.code === 'RATE_LIMITED')).toHaveLength(0);
    // The limit itself exists: per client, 10 requests a minute.
    for (let i = 0; i < 9; i++) expect(messages(await gql(t, `mutation { login(username: "bob", password: "x${i}") { token } }`))[0]).toBe('Invalid username or password.');
    expect(messages(await gql(t, 'mutation { login(username: "bob", password: "y") { token } }'))[0]).toBe('Too many attempts, try again later.');
  });

  it('the hardened limiter counts every attempt, aliases and batch entries alike', async () => {
    const t = await start({ mode: 'hardened' });
    await gql(t, 'mutation { requestPasswordReset(username: "alice") }');
    const code = t.outbox.at(-1)!.code;
    const r = await gql(t, [{ query: verify(wrong(10, code)) }, { query: verify(wrong(10, code).slice(0, 9).concat(code)) }]);
    expect(Object.values(r.json[0].data).every((x: AnyJson) => x.success === false)).toBe(true);
    expect(r.json[1].data).toBeNull();
    // The 11th attempt is refused; a refused non-null mutation field stops the rest of its operation.
    expect(r.json[1].errors.map((e: AnyJson) => e.extensions.code)).toEqual(['RATE_LIMITED']);
    const once = await gql(t, verify([code]));
    expect(once.json.errors[0].message).toBe('Too many attempts, try again later.');
  });
});

describe('BOLA', () => {
  const q = (id: number) => `{ loan(id: "1") { notes member { email } } member(id: "${id}") { email address loans { notes } } }`;
  it('the vulnerable target gives bob alice\'s loan notes and profile', async () => {
    const r = await gql(v, q(v.users.alice.id), { key: v.users.bob.key });
    expect(r.json.data.loan.notes).toMatch(/07700 900123/);
    expect(r.json.data.member.email).toBe('alice@citylibrary.test');
    expect(r.json.data.member.loans).toHaveLength(2);
  });
  it('the hardened twin answers null and "Not found", but serves the owner and admins', async () => {
    const r = await gql(h, q(h.users.alice.id), { key: h.users.bob.key });
    expect(r.json.data).toEqual({ loan: null, member: null });
    expect(r.json.errors.map((e: AnyJson) => [e.message, e.extensions.code])).toEqual([['Not found', 'NOT_FOUND'], ['Not found', 'NOT_FOUND']]);
    expect((await gql(h, q(h.users.alice.id), { key: h.users.alice.key })).json.data.loan.notes).toMatch(/07700/);
    expect((await gql(h, q(h.users.bob.id), { key: h.users.admin.key })).json.errors).toBeUndefined();
  });
});

describe('BFLA', () => {
  const admin = 'mutation($id: ID!) { setMemberRole(id: $id, role: ADMIN) { role } updateLibrarySettings(name: "Hacked Library") { name } }';
  it('a member runs the admin mutations on the vulnerable target', async () => {
    const t = await start({ mode: 'vulnerable' });
    const r = await gql(t, admin, { key: t.users.bob.key, variables: { id: String(t.users.bob.id) } });
    expect(r.json.data).toEqual({ setMemberRole: { role: 'ADMIN' }, updateLibrarySettings: { name: 'Hacked Library' } });
    expect((await gql(t, '{ libraryInfo { name } }')).json.data.libraryInfo.name).toBe('Hacked Library');
    const del = await gql(t, `mutation { deleteMember(id: "${t.users.alice.id}") }`, { key: t.users.bob.key });
    expect(del.json.data.deleteMember).toBe(true);
    expect((await gql(t, '{ me { id } }', { key: t.users.alice.key })).json.data.me).toBeNull();
  });
  it('the hardened twin refuses a member and changes nothing, but lets the admin', async () => {
    const t = await start({ mode: 'hardened' });
    const r = await gql(t, admin, { key: t.users.bob.key, variables: { id: String(t.users.bob.id) } });
    expect(r.json.data).toBeNull();
    expect(r.json.errors[0]).toMatchObject({ message: 'Forbidden', extensions: { code: 'FORBIDDEN' } });
    expect((await gql(t, `mutation { deleteMember(id: "${t.users.alice.id}") }`, { key: t.users.bob.key })).json.errors[0].message).toBe('Forbidden');
    expect((await gql(t, '{ libraryInfo { name } me { role } }', { key: t.users.bob.key })).json.data).toEqual({ libraryInfo: { name: 'City Library' }, me: { role: 'MEMBER' } });
    expect((await gql(t, admin, { key: t.users.admin.key, variables: { id: String(t.users.bob.id) } })).json.data.setMemberRole.role).toBe('ADMIN');
  });
});

describe('SQL injection', () => {
  const search = (t: GraphqlTarget, title: string) => gql(t, 'query($t: String!) { searchBooks(title: $t) { title isbn } }', { variables: { t: title } });
  it('is real SQL on the vulnerable target: errors, boolean changes, UNION, delays', async () => {
    for (const p of ["'", "')", "x' ORDER BY 99--"]) expect(messages(await search(v, p))[0], p).toMatch(/^SQLITE_ERROR: /);
    expect((await search(v, 'Wizard')).json.data.searchBooks).toHaveLength(1);
    expect((await search(v, "Wizard%' AND 1=1--")).json.data.searchBooks).toHaveLength(1);
    expect((await search(v, "Wizard%' AND 1=2--")).json.data.searchBooks).toHaveLength(0);
    expect((await search(v, "zzz' OR 1=1--")).json.data.searchBooks).toHaveLength(5);
    const union = await search(v, "zzz' UNION SELECT id, username, password_hash, 1, 1, NULL FROM members--");
    expect(union.json.data.searchBooks.map((b: AnyJson) => b.isbn).join()).toContain('$scrypt$');
    const [one, two] = [await search(v, "x' OR sleep(0.3)--"), await search(v, "x' OR sleep(1.2)--")];
    expect(two.ms - one.ms).toBeGreaterThan(600);
  });
  it('binds a parameter on the hardened twin', async () => {
    for (const p of ["'", "zzz' OR 1=1--", "x' OR sleep(1)--"]) {
      const r = await search(h, p);
      expect(r.json, p).toEqual({ data: { searchBooks: [] } });
    }
    expect((await search(h, 'Wizard')).json.data.searchBooks).toHaveLength(1);
  });
});

describe('NoSQL injection', () => {
  const find = (t: GraphqlTarget, filter: unknown) => gql(t, 'query($f: JSON!) { findMembers(filter: $f) { username } }', { variables: { f: filter } });
  it('operators and private fields are honoured on the vulnerable target', async () => {
    expect((await find(v, { username: 'alice' })).json.data.findMembers).toHaveLength(1);
    expect((await find(v, { username: { $ne: null } })).json.data.findMembers.length).toBeGreaterThanOrEqual(3);
    // The default-password flaw's administrator account is an admin too.
    expect((await find(v, { role: { $in: ['ADMIN'] } })).json.data.findMembers).toEqual([{ username: 'admin' }, { username: 'administrator' }]);
    expect((await find(v, { username: 'alice', email: { $regex: '^alice@' } })).json.data.findMembers).toHaveLength(1);
    expect((await find(v, { username: 'alice', email: { $regex: '^bob@' } })).json.data.findMembers).toHaveLength(0);
    // An inline literal is parsed into the JSON scalar too (operators need variables: "$" is no GraphQL name).
    expect((await gql(v, '{ findMembers(filter: { username: "bob" }) { username } }')).json.data.findMembers).toEqual([{ username: 'bob' }]);
  });
  it('only plain strings on public fields pass on the hardened twin', async () => {
    expect((await find(h, { username: 'alice' })).json.data.findMembers).toEqual([{ username: 'alice' }]);
    for (const f of [{ username: { $ne: null } }, { email: 'alice@citylibrary.test' }, { username: { $regex: '.*' } }]) {
      const r = await find(h, f);
      expect(r.json.data, JSON.stringify(f)).toBeNull();
      expect(r.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
  });
});

describe('command injection', () => {
  const check = (t: GraphqlTarget, host: string) => gql(t, 'mutation($h: String!) { checkMirror(host: $h) { resolves output } }', { variables: { h: host }, key: t.users.alice.key });
  it('runs a real shell on the vulnerable target', async () => {
    expect((await check(v, 'localhost')).json.data.checkMirror).toMatchObject({ resolves: true, output: expect.stringContaining('127.0.0.1') });
    expect((await check(v, 'nohost; echo INJECTED-$((6*7))')).json.data.checkMirror.output).toContain('INJECTED-42');
    expect((await check(v, 'localhost`id`')).json.data.checkMirror.output).not.toContain('`');
    const [slow, quick] = [await check(v, 'localhost$(sleep 1)'), await check(v, 'localhost')];
    expect(slow.ms - quick.ms).toBeGreaterThan(800);
  });
  it('validates the host and runs no shell on the hardened twin', async () => {
    expect((await check(h, 'localhost')).json.data.checkMirror.resolves).toBe(true);
    for (const p of ['nohost; echo INJECTED', 'localhost$(sleep 1)', 'a|b']) {
      const r = await check(h, p);
      expect(r.json.errors[0], p).toMatchObject({ message: 'Invalid host: a host name or an IP address is expected.' });
      expect(r.ms).toBeLessThan(800);
    }
  });
});

describe('guarded command injection', () => {
  const report = (t: GraphqlTarget, password: string, host: string) =>
    gql(t, 'query($u: String!, $p: String!, $h: String!) { mirrorReport(username: $u, password: $p, host: $h) }', { variables: { u: 'administrator', p: password, h: host } });
  it('runs a real shell for the administrator\'s password on the vulnerable target, and nothing without it', async () => {
    expect((await report(v, 'admin123', 'nohost; echo INJECTED-$((6*7))')).json.data.mirrorReport).toContain('INJECTED-42');
    const refused = await report(v, 'not-the-password', 'nohost; echo INJECTED-$((6*7))');
    expect(refused.json.errors[0].message).toBe('Invalid credentials.');
    expect(JSON.stringify(refused.json)).not.toContain('INJECTED-42');
  });
  it('validates the host and runs no shell on the hardened twin, even for the administrator', async () => {
    const t = await start({ mode: 'hardened', flaws: { 'default-password': true } });
    expect((await report(t, 'admin123', 'localhost')).json.data.mirrorReport).toContain('127.0.0.1');
    expect((await report(t, 'admin123', 'nohost; echo INJECTED')).json.errors[0].message).toBe('Invalid host: a host name or an IP address is expected.');
  });
});

describe('SSRF', () => {
  const cover = (t: GraphqlTarget, url: string) => gql(t, 'mutation($u: String!) { importBookCover(bookId: "1", url: $u) { status contentType size } }', { variables: { u: url }, key: t.users.alice.key });
  const suggest = (t: GraphqlTarget, link: string) =>
    gql(t, 'mutation($l: String!) { suggestPurchase(title: "Dune", link: $l) { title linkStatus linkContentType } }', { variables: { l: link }, key: t.users.alice.key });
  it('the vulnerable target fetches loopback URLs, itself included', async () => {
    const l = await listen();
    try {
      const r = await cover(v, `${l.url}/cover.png`);
      expect(r.json.data.importBookCover).toMatchObject({ status: 200, contentType: 'text/html' });
      expect(l.hits.map((x) => x.url)).toEqual(['/cover.png']);
      expect((await cover(v, `${v.url}/nothing-here`)).json.data.importBookCover.status).toBe(404);
      const suggested = await suggest(v, `${l.url}/publisher`);
      expect(suggested.json.data.suggestPurchase).toMatchObject({ title: 'Dune', linkStatus: 200, linkContentType: 'text/html' });
      expect(l.hits.map((x) => x.url)).toEqual(['/cover.png', '/publisher']);
    } finally {
      await l.close();
    }
  });
  it('the hardened twin fetches only allowlisted origins', async () => {
    const l = await listen();
    try {
      const r = await cover(h, `${l.url}/cover.png`);
      expect(r.json.errors[0].message).toBe('URL not allowed');
      expect((await cover(h, 'file:///etc/passwd')).json.errors[0].message).toBe('URL not allowed');
      expect((await suggest(h, `${l.url}/publisher`)).json.errors[0].message).toBe('URL not allowed');
      expect(l.hits).toHaveLength(0);
      const allowed = await start({ mode: 'hardened', fetchAllowlist: [l.url] });
      expect((await cover(allowed, `${l.url}/cover.png`)).json.data.importBookCover.status).toBe(200);
      expect((await cover(allowed, `${allowed.url}/graphql`)).json.errors[0].message).toBe('URL not allowed');
    } finally {
      await l.close();
    }
  });
});

describe('debug errors', () => {
  const review = 'mutation { addReview(bookId: "1", rating: 9, text: "wow") { id } }';
  it('the vulnerable target returns the internal message and a real stack trace', async () => {
    const r = await gql(v, review, { key: v.users.alice.key });
    const e = r.json.errors[0];
    expect(e.message).toMatch(/CHECK constraint failed/);
    expect(e.extensions.exception.name).toBe('SqliteError');
    expect(e.extensions.exception.stacktrace.join('\n')).toMatch(STACK_TRACE);
    expect(e.extensions.exception.stacktrace.join('\n')).toMatch(/store\.ts:\d+/);
    const validation = await gql(v, '{ nosuch }');
    expect(validation.json.errors[0].extensions.exception.stacktrace.join('\n')).toMatch(/node_modules\/graphql/);
  });
  it('the hardened twin masks it', async () => {
    const r = await gql(h, review, { key: h.users.alice.key });
    expect(r.json.errors[0]).toEqual({ message: 'Internal server error', locations: [{ line: 1, column: 12 }], path: ['addReview'], extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(r.json.errors[0].message).not.toMatch(/CHECK/);
    expect((await gql(h, '{ nosuch }')).json.errors[0].extensions).toBeUndefined();
  });
});

describe('resolver error traces', () => {
  const unknownLoan = '{ loan(id: "x\'") { id } }';
  it('errors raised inside a resolver carry its stack; coercion errors do not', async () => {
    const t = await start({ mode: 'hardened', flaws: { 'resolver-error-traces': true } });
    const r = await gql(t, unknownLoan, { key: t.users.alice.key });
    expect(r.json.errors[0].message).toBe('Not found');
    expect(r.json.errors[0].extensions.exception.stack.join('\n')).toMatch(/resolvers\.ts:\d+/);
    const coercion = await gql(t, 'query($id: ID!) { loan(id: $id) { id } }', { key: t.users.alice.key, variables: { id: { x: 1 } } });
    expect(coercion.json.errors[0].extensions?.exception).toBeUndefined();
  });
  it('the hardened twin gives the message and code only', async () => {
    const r = await gql(h, unknownLoan, { key: h.users.alice.key });
    expect(r.json.errors[0].message).toBe('Not found');
    expect(r.json.errors[0].extensions.exception).toBeUndefined();
  });
});

describe('mutations over GET and non-JSON posts', () => {
  const m = 'mutation { requestPasswordReset(username: "bob") }';
  it('execute on the vulnerable target (CSRF)', async () => {
    const before = v.outbox.length;
    expect((await gql(v, m, { method: 'GET' })).json.data).toEqual({ requestPasswordReset: true });
    expect((await gql(v, m, { contentType: 'text/plain' })).json.data).toEqual({ requestPasswordReset: true });
    const form = await fetch(v.endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ query: m }) });
    expect(await form.json()).toEqual({ data: { requestPasswordReset: true } });
    expect(v.outbox.length - before).toBe(3);
  });
  it('get 405 and 415 on the hardened twin, while queries over GET work', async () => {
    const before = h.outbox.length;
    const r = await gql(h, m, { method: 'GET' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect((await gql(h, m, { contentType: 'text/plain' })).status).toBe(415);
    expect(h.outbox.length).toBe(before);
    expect((await gql(h, 'query($id: ID!) { book(id: $id) { title } }', { method: 'GET', variables: { id: '1' } })).json.data.book.title).toBe('A Wizard of Earthsea');
  });
});

describe('unauthenticated fields', () => {
  const q = '{ members { username email address } loans { notes } books { title } }';
  it('members and loans answer without credentials on the vulnerable target', async () => {
    const r = await gql(v, q);
    expect(r.json.errors).toBeUndefined();
    expect(r.json.data.members.map((x: AnyJson) => x.email)).toContain('alice@citylibrary.test');
    expect(r.json.data.loans.length).toBeGreaterThanOrEqual(3);
  });
  it('the hardened twin wants a token for them, and shows a member only their own', async () => {
    const r = await gql(h, q);
    expect(r.json.data.members).toBeNull();
    expect(r.json.data.loans).toBeNull();
    expect(r.json.data.books).toHaveLength(5);
    expect(r.json.errors.map((e: AnyJson) => [e.message, e.extensions.code])).toEqual([['Unauthorized', 'UNAUTHENTICATED'], ['Unauthorized', 'UNAUTHENTICATED']]);
    expect((await gql(h, q, { key: 'lib_forged-token' })).json.data.members).toBeNull();
    const alice = await gql(h, q, { key: h.users.alice.key });
    expect(alice.json.data.members.map((x: AnyJson) => x.username)).toEqual(['alice']);
    expect(alice.json.data.loans).toHaveLength(2);
  });
});
