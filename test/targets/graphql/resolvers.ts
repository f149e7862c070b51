// The resolvers of the library API, attached to the schema built from its SDL. Each flaw is one
// branch here (or in rules.ts / server.ts); everything else is the same in both modes.

import { exec, execFile } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import { buildSchema, GraphQLError, type GraphQLFieldResolver, type GraphQLSchema, isObjectType } from 'graphql';
import { SqlError, type UnsafeSql } from '../db';
import { type FetchAllowlist, FetchFailed, FetchRefused, type UrlFetcher } from '../fetcher';
import { matches } from '../legacy-store';
import type { GraphqlFlawId } from './flaws';
import { LIBRARY_SDL } from './sdl';
import { type BookRow, type LibrarySettings, type LibraryStore, type LoanRow, type MemberRow, newToken, type ReviewRow } from './store';

/** The secret share tokens (HS256 JWTs) are signed with: one per process, like the key of a single deployment. */
const SHARE_SECRET = crypto.randomBytes(32);
const b64json = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const shareSig = (input: string) => crypto.createHmac('sha256', SHARE_SECRET).update(input).digest('base64url');

function signShareToken(memberId: number): string {
  const input = `${b64json({ alg: 'HS256', typ: 'JWT' })}.${b64json({ sub: String(memberId), scope: 'card', iat: Math.floor(Date.now() / 1000) })}`;
  return `${input}.${shareSig(input)}`;
}

/** The member id a share token names, read without checking its signature (the share-token-unverified flaw). */
function shareTokenSubject(token: string): number | null {
  try {
    const p = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof p.sub === 'string' && /^\d+$/.test(p.sub) ? Number(p.sub) : null;
  } catch {
    return null;
  }
}

function verifiedShareSubject(token: string): number | null {
  const [h, p, sig] = token.split('.');
  if (!h || !p || !sig) return null;
  let header: { alg?: unknown };
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: unknown };
  } catch {
    return null;
  }
  const want = Buffer.from(shareSig(`${h}.${p}`));
  const got = Buffer.from(sig);
  if (header.alg !== 'HS256' || want.length !== got.length || !crypto.timingSafeEqual(want, got)) return null;
  return shareTokenSubject(token);
}

function signBadgeToken(username: string): string {
  const input = `${b64json({ alg: 'HS256', typ: 'JWT' })}.${b64json({ username, kind: 'badge', iat: Math.floor(Date.now() / 1000) })}`;
  return `${input}.${shareSig(input)}`;
}

/** The username a badge token names, read without checking its signature (the badge-token-unverified flaw). */
function badgeUsername(token: string): string | null {
  try {
    const p = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { username?: unknown };
    return typeof p.username === 'string' ? p.username : null;
  } catch {
    return null;
  }
}

function verifiedBadgeUsername(token: string): string | null {
  const [h, p, sig] = token.split('.');
  if (!h || !p || !sig) return null;
  const want = Buffer.from(shareSig(`${h}.${p}`));
  const got = Buffer.from(sig);
  let alg: unknown;
  try {
    alg = (JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
  } catch {
    return null;
  }
  return alg === 'HS256' && want.length === got.length && crypto.timingSafeEqual(want, got) ? badgeUsername(token) : null;
}

/** A reset code the library "sent" (tests read it here, as from a mailbox). */
export interface ResetMessage {
  time: number;
  username: string;
  email: string;
  code: string;
}

export interface LibraryServices {
  has(id: GraphqlFlawId): boolean;
  store: LibraryStore;
  /** Runs concatenated SQL text on a worker's read-only connection (the sql-injection flaw). */
  unsafe: UnsafeSql;
  fetcher: UrlFetcher;
  allowlist: FetchAllowlist;
  /** Bearer token -> member id. */
  sessions: Map<string, number>;
  resetCodes: Map<string, { code: string; memberId: number; expires: number }>;
  outbox: ResetMessage[];
  /** The notice board, in memory. */
  notices: { id: number; title: string; body: string; postedBy: string }[];
}

/** Per HTTP request (shared by the operations of an array batch). */
export interface RequestContext {
  viewer: MemberRow | undefined;
  /** Counts one login or reset-code attempt against the client's limit; throws when it is used up. */
  attempt(kind: 'login' | 'reset-code'): void;
}

type Args = Record<string, unknown>;
type Resolver = GraphQLFieldResolver<unknown, RequestContext, Args>;

const userError = (message: string, code: string) => new GraphQLError(message, { extensions: { code } });
const unauthorized = () => userError('Unauthorized', 'UNAUTHENTICATED');
const notFound = () => userError('Not found', 'NOT_FOUND');
const forbidden = () => userError('Forbidden', 'FORBIDDEN');
const badInput = (message: string) => userError(message, 'BAD_USER_INPUT');

function numericId(id: unknown): number {
  return typeof id === 'string' && /^\d{1,12}$/.test(id) ? Number(id) : NaN;
}

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?$/;
const USERNAME = /^[A-Za-z0-9_]{3,32}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[A-Za-z]{2,24}$/;
const MAX_ATTEMPT_OUTPUT = 4096;

function run(command: string, args: string[] | undefined): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const done = (err: (Error & { code?: unknown }) | null, stdout: string, stderr: string) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}${stderr}`.slice(0, MAX_ATTEMPT_OUTPUT) });
    if (args) execFile(command, args, { timeout: 15_000 }, done);
    else exec(command, { timeout: 15_000, shell: '/bin/sh' }, done);
  });
}

export function buildLibrarySchema(s: LibraryServices): GraphQLSchema {
  const { has, store } = s;

  const viewerOf = (ctx: RequestContext): MemberRow => {
    if (!ctx.viewer) throw unauthorized();
    return ctx.viewer;
  };
  const isAdmin = (m: MemberRow) => m.role === 'ADMIN';
  const requireAdmin = (ctx: RequestContext): MemberRow => {
    const v = viewerOf(ctx);
    if (!has('bfla') && !isAdmin(v)) throw forbidden();
    return v;
  };
  const session = (memberId: number): string => {
    const token = newToken();
    s.sessions.set(token, memberId);
    return token;
  };
  /** An object owned by another member: the bola flaw hands it out, the hardened twin says "Not found". */
  const owned = <T>(ctx: RequestContext, row: T | undefined, ownerId: (r: T) => number): T | null => {
    const v = viewerOf(ctx);
    if (!row) {
      if (has('bola')) return null;
      throw notFound();
    }
    if (!has('bola') && ownerId(row) !== v.id && !isAdmin(v)) throw notFound();
    return row;
  };

  async function searchBooks(title: string): Promise<BookRow[]> {
    if (!has('sql-injection')) return store.searchBooks(title);
    store.queries++;
    try {
      return (await s.unsafe.query(`SELECT id, title, isbn, year, author_id, cover_url FROM books WHERE title LIKE '%${title}%' ORDER BY id`)) as unknown as BookRow[];
    } catch (e) {
      // The resolver hands the driver's message to the client, as many do "to help debugging".
      if (e instanceof SqlError) throw new GraphQLError(`${e.failure.code ?? 'SQLITE_ERROR'}: ${e.message}`, { originalError: e, extensions: { code: 'DATABASE_ERROR' } });
      throw e;
    }
  }

  function findMembers(filter: unknown): MemberRow[] {
    if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) throw badInput('Invalid filter: an object of field values is expected.');
    const f = filter as Record<string, unknown>;
    if (!has('nosql-injection')) {
      for (const [k, v] of Object.entries(f)) {
        if ((k !== 'username' && k !== 'displayName') || typeof v !== 'string') throw badInput('Invalid filter: only username and displayName, as strings.');
      }
    }
    const docs = store.members().map((m) => ({ row: m, doc: { id: m.id, username: m.username, displayName: m.display_name, email: m.email, role: m.role, joinedAt: m.joined_at } }));
    try {
      return docs.filter((d) => matches(d.doc, f)).map((d) => d.row);
    } catch (e) {
      throw badInput(`Invalid filter: ${(e as Error).message}`);
    }
  }

  async function checkMirror(host: string): Promise<{ host: string; resolves: boolean; output: string }> {
    if (has('command-injection')) {
      const r = await run(`getent -s files hosts ${host}`, undefined);
      return { host, resolves: r.code === 0, output: r.output };
    }
    if (!HOST_NAME.test(host) && net.isIP(host) === 0) throw badInput('Invalid host: a host name or an IP address is expected.');
    const r = await run('getent', ['-s', 'files', 'hosts', host]);
    return { host, resolves: r.code === 0, output: r.output };
  }

  /** Fetches a URL a member gave (a cover image, a publisher's page): any URL when the ssrf flaw is on, else allowlisted origins. */
  async function fetchMemberUrl(raw: string, feature: string, what: string, flaw: GraphqlFlawId = 'ssrf'): Promise<{ url: string; status: number; contentType: string; size: number }> {
    let internal = true;
    if (!has(flaw)) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw badInput('URL not allowed');
      }
      if (!s.allowlist.has(url)) throw badInput('URL not allowed');
      internal = false;
    }
    try {
      const r = await s.fetcher.fetch(raw, feature, { internal });
      return { url: r.finalUrl, status: r.status, contentType: r.contentType, size: r.body.length };
    } catch (e) {
      if (e instanceof FetchRefused) throw badInput('URL not allowed');
      if (e instanceof FetchFailed) throw userError(`Could not fetch the ${what}: ${e.message}`, 'FETCH_FAILED');
      throw e;
    }
  }

  function settingsPatch(a: Args): Partial<LibrarySettings> {
    const patch: Partial<LibrarySettings> = {};
    if (typeof a.name === 'string') {
      if (a.name.length < 1 || a.name.length > 80) throw badInput('name must be 1 to 80 characters.');
      patch.name = a.name;
    }
    if (typeof a.openingHours === 'string') {
      if (a.openingHours.length < 1 || a.openingHours.length > 80) throw badInput('openingHours must be 1 to 80 characters.');
      patch.openingHours = a.openingHours;
    }
    if (typeof a.loanDays === 'number') {
      if (a.loanDays < 1 || a.loanDays > 90) throw badInput('loanDays must be 1 to 90.');
      patch.loanDays = a.loanDays;
    }
    if (typeof a.maxLoans === 'number') {
      if (a.maxLoans < 1 || a.maxLoans > 50) throw badInput('maxLoans must be 1 to 50.');
      patch.maxLoans = a.maxLoans;
    }
    return patch;
  }

  const resolvers: Record<string, Record<string, Resolver>> = {
    Query: {
      libraryInfo: () => store.settings(),
      books: (_, a) => store.books(Math.min(Math.max(Number(a.limit ?? 10), 0), 100)),
      book: (_, a) => store.book(numericId(a.id)) ?? null,
      author: (_, a) => store.author(numericId(a.id)) ?? null,
      searchBooks: (_, a) => searchBooks(String(a.title)),
      mirrorReport: async (_, a) => {
        const m = store.verify(String(a.username), String(a.password));
        if (!m || m.role !== 'ADMIN') throw userError('Invalid credentials.', 'UNAUTHENTICATED');
        const host = String(a.host);
        if (has('guarded-command-injection')) return (await run(`getent -s files hosts ${host}`, undefined)).output;
        if (!HOST_NAME.test(host) && net.isIP(host) === 0) throw badInput('Invalid host: a host name or an IP address is expected.');
        return (await run('getent', ['-s', 'files', 'hosts', host])).output;
      },
      findMembers: (_, a) => findMembers(a.filter),
      me: (_, __, ctx) => ctx.viewer ?? null,
      shareToken: (_, __, ctx) => (ctx.viewer ? signShareToken(ctx.viewer.id) : null),
      sharedCard: (_, a) => {
        const id = has('share-token-unverified') ? shareTokenSubject(String(a.token)) : verifiedShareSubject(String(a.token));
        const m = id === null ? undefined : store.member(id);
        if (!m) throw new GraphQLError('Invalid share token', { extensions: { code: 'UNAUTHENTICATED' } });
        return m;
      },
      badgeToken: (_, __, ctx) => (ctx.viewer ? signBadgeToken(ctx.viewer.username) : null),
      badge: (_, a) => {
        const username = has('badge-token-unverified') ? badgeUsername(String(a.token)) : verifiedBadgeUsername(String(a.token));
        const m = username === null ? undefined : store.memberByName(username);
        if (!m) throw new GraphQLError('Invalid badge token', { extensions: { code: 'UNAUTHENTICATED' } });
        return m;
      },
      notices: () => s.notices.slice(-50).reverse(),
      member: (_, a, ctx) => owned(ctx, store.member(numericId(a.id)), (m) => m.id),
      loan: (_, a, ctx) => owned(ctx, store.loan(numericId(a.id)), (l) => l.member_id),
      members: (_, __, ctx) => {
        if (!ctx.viewer) {
          if (has('unauthenticated-fields')) return store.members();
          throw unauthorized();
        }
        return isAdmin(ctx.viewer) ? store.members() : [ctx.viewer];
      },
      loans: (_, __, ctx) => {
        if (!ctx.viewer) {
          if (has('unauthenticated-fields')) return store.loans();
          throw unauthorized();
        }
        return isAdmin(ctx.viewer) ? store.loans() : store.loansOf(ctx.viewer.id);
      },
    },
    Mutation: {
      register: (_, a) => {
        const username = String(a.username);
        const password = String(a.password);
        const email = String(a.email);
        if (!USERNAME.test(username)) throw badInput('username must be 3 to 32 letters, digits or underscores.');
        if (password.length < 8 || password.length > 128) throw badInput('password must be 8 to 128 characters.');
        if (!EMAIL.test(email)) throw badInput('email is not a valid e-mail address.');
        if (store.memberByName(username) || store.members().some((m) => m.email.toLowerCase() === email.toLowerCase())) throw badInput('That username or e-mail is already registered.');
        const m = store.addMember(username, password, email);
        return { token: session(m.id), member: m };
      },
      login: (_, a, ctx) => {
        ctx.attempt('login');
        const m = store.verify(String(a.username), String(a.password));
        if (!m) throw userError('Invalid username or password.', 'UNAUTHENTICATED');
        return { token: session(m.id), member: m };
      },
      requestPasswordReset: (_, a) => {
        const m = store.memberByName(String(a.username));
        if (m) {
          const code = String(crypto.randomInt(0, 10_000)).padStart(4, '0');
          s.resetCodes.set(m.username, { code, memberId: m.id, expires: Date.now() + 10 * 60_000 });
          s.outbox.push({ time: Date.now(), username: m.username, email: m.email, code });
        }
        return true;
      },
      verifyResetCode: (_, a, ctx) => {
        ctx.attempt('reset-code');
        const entry = s.resetCodes.get(String(a.username));
        const code = Buffer.from(String(a.code));
        if (!entry || entry.expires < Date.now() || code.length !== entry.code.length || !crypto.timingSafeEqual(code, Buffer.from(entry.code))) {
          return { success: false, token: null };
        }
        s.resetCodes.delete(String(a.username));
        return { success: true, token: session(entry.memberId) };
      },
      borrowBook: (_, a, ctx) => {
        const v = viewerOf(ctx);
        const book = store.book(numericId(a.bookId));
        if (!book) throw badInput('No such book.');
        const notes = typeof a.notes === 'string' ? a.notes : null;
        if (notes !== null && notes.length > 500) throw badInput('notes must be at most 500 characters.');
        return store.addLoan(v.id, book.id, notes, store.settings().loanDays);
      },
      // No range check here: SQLite's CHECK and FOREIGN KEY constraints refuse bad input, and their
      // errors are the "unexpected" ones the debug-errors flaw shows and the hardened twin masks.
      addReview: (_, a, ctx) => {
        const v = viewerOf(ctx);
        const text = String(a.text);
        if (text.length > 2000) throw badInput('text must be at most 2000 characters.');
        return store.addReview(v.id, numericId(a.bookId), Number(a.rating), text);
      },
      checkMirror: (_, a, ctx) => {
        viewerOf(ctx);
        return checkMirror(String(a.host));
      },
      importBookCover: async (_, a, ctx) => {
        viewerOf(ctx);
        const book = store.book(numericId(a.bookId));
        if (!book) throw badInput('No such book.');
        const result = await fetchMemberUrl(String(a.url), 'book-cover', 'cover');
        store.setCover(book.id, String(a.url));
        return result;
      },
      suggestPurchase: async (_, a, ctx) => {
        viewerOf(ctx);
        const title = String(a.title);
        if (title.length < 1 || title.length > 200) throw badInput('title must be 1 to 200 characters.');
        const checked = await fetchMemberUrl(String(a.link), 'purchase-link', 'link');
        return { title, link: checked.url, linkStatus: checked.status, linkContentType: checked.contentType };
      },
      // The URL is joined from its parts by string, as many import features do.
      importCatalogue: async (_, a, ctx) => {
        viewerOf(ctx);
        const port = typeof a.port === 'number' ? `:${a.port}` : '';
        const checked = await fetchMemberUrl(`${String(a.scheme)}://${String(a.host)}${port}${String(a.path)}`, 'catalogue-import', 'catalogue', 'ssrf-split-url');
        return { status: checked.status, size: checked.size };
      },
      postNotice: (_, a, ctx) => {
        const v = viewerOf(ctx);
        // The stored-markup flaw keeps markup as sent; the hardened twin encodes it on the way in.
        const keep = (x: unknown) => (has('stored-markup') ? String(x) : String(x).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`));
        const title = String(a.title);
        const body = String(a.body);
        if (title.length < 1 || title.length > 200 || body.length > 2000) throw badInput('title must be 1 to 200 characters and body at most 2000.');
        const notice = { id: s.notices.length + 1, title: keep(title), body: keep(body), postedBy: v.display_name };
        s.notices.push(notice);
        return notice;
      },
      deleteMember: (_, a, ctx) => {
        requireAdmin(ctx);
        return store.deleteMember(numericId(a.id));
      },
      setMemberRole: (_, a, ctx) => {
        requireAdmin(ctx);
        const m = store.setRole(numericId(a.id), a.role === 'ADMIN' ? 'ADMIN' : 'MEMBER');
        if (!m) throw notFound();
        return m;
      },
      updateLibrarySettings: (_, a, ctx) => {
        requireAdmin(ctx);
        return store.updateSettings(settingsPatch(a));
      },
    },
    Author: {
      books: (a) => store.booksByAuthor((a as { id: number }).id),
    },
    Book: {
      coverUrl: (b) => (b as BookRow).cover_url,
      available: (b) => store.loansOfBook((b as BookRow).id).length === 0,
      author: (b) => store.author(Number((b as BookRow).author_id)),
      reviews: (b) => store.reviewsOfBook((b as BookRow).id),
    },
    Review: {
      reviewer: (r) => store.member((r as ReviewRow).member_id)?.display_name ?? 'former member',
      book: (r) => store.book((r as ReviewRow).book_id),
    },
    MemberCard: {
      displayName: (m) => (m as MemberRow).display_name,
    },
    Member: {
      displayName: (m) => (m as MemberRow).display_name,
      joinedAt: (m) => (m as MemberRow).joined_at,
      loans: (m) => store.loansOf((m as MemberRow).id),
      reviews: (m) => store.reviewsOf((m as MemberRow).id),
    },
    Loan: {
      borrowedAt: (l) => (l as LoanRow).borrowed_at,
      dueAt: (l) => (l as LoanRow).due_at,
      returned: (l) => (l as LoanRow).returned === 1,
      book: (l) => store.book((l as LoanRow).book_id),
      member: (l) => store.member((l as LoanRow).member_id),
    },
  };

  const schema = buildSchema(LIBRARY_SDL);
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`no object type ${typeName}`);
    const defined = type.getFields();
    for (const [name, resolve] of Object.entries(fields)) {
      const field = defined[name];
      if (!field) throw new Error(`no field ${typeName}.${name}`);
      field.resolve = resolve;
    }
  }
  return schema;
}
