// The library's data: a real SQLite file (better-sqlite3), the same seed in both modes. Lists are
// short (2-3 items) so even a deep query stays cheap, but every nested field is its own query.

import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import { hashPassword, verifyPassword } from '../auth';

const SCHEMA = `
CREATE TABLE members (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  address TEXT NOT NULL,
  role TEXT NOT NULL DEFAULT 'MEMBER' CHECK (role IN ('MEMBER', 'ADMIN')),
  password_hash TEXT NOT NULL,
  joined_at TEXT NOT NULL
);
CREATE TABLE authors (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, bio TEXT NOT NULL);
CREATE TABLE books (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  title TEXT NOT NULL,
  isbn TEXT NOT NULL,
  year INTEGER NOT NULL,
  author_id INTEGER NOT NULL REFERENCES authors(id),
  cover_url TEXT
);
CREATE TABLE loans (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  book_id INTEGER NOT NULL REFERENCES books(id),
  borrowed_at TEXT NOT NULL,
  due_at TEXT NOT NULL,
  returned INTEGER NOT NULL DEFAULT 0,
  notes TEXT
);
CREATE TABLE reviews (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  book_id INTEGER NOT NULL REFERENCES books(id),
  member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  text TEXT NOT NULL
);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export interface MemberRow {
  id: number;
  username: string;
  display_name: string;
  email: string;
  address: string;
  role: 'MEMBER' | 'ADMIN';
  password_hash: string;
  joined_at: string;
}
export interface AuthorRow {
  id: number;
  name: string;
  bio: string;
}
export interface BookRow {
  id: number;
  title: string;
  isbn: string;
  year: number;
  author_id: number;
  cover_url: string | null;
}
export interface LoanRow {
  id: number;
  member_id: number;
  book_id: number;
  borrowed_at: string;
  due_at: string;
  returned: number;
  notes: string | null;
}
export interface ReviewRow {
  id: number;
  book_id: number;
  member_id: number;
  rating: number;
  text: string;
}
export interface LibrarySettings {
  name: string;
  openingHours: string;
  loanDays: number;
  maxLoans: number;
}

export interface SeededMember {
  id: number;
  username: string;
  password: string;
  role: 'MEMBER' | 'ADMIN';
}

const SEED_MEMBERS = [
  { username: 'alice', display: 'Alice Archer', email: 'alice@citylibrary.test', address: '12 Elm Row, Bristol BS1 4DJ', role: 'MEMBER' },
  { username: 'bob', display: 'Bob Baker', email: 'bob@citylibrary.test', address: '7 Quay Street, Leeds LS1 2AB', role: 'MEMBER' },
  { username: 'admin', display: 'Library Admin', email: 'admin@citylibrary.test', address: 'City Library, 1 Main Street', role: 'ADMIN' },
] as const;

// Passwords are fixed so a manual run can sign in; the hashes are fresh.
const PASSWORDS: Record<string, string> = { alice: 'alice-reads-2024', bob: 'bob-borrows-2024', admin: 'librarian-admin-2024' };

const DEFAULT_SETTINGS: LibrarySettings = { name: 'City Library', openingHours: 'Mon-Sat 09:00-18:00', loanDays: 21, maxLoans: 5 };

/** Seeds an empty database file; returns the members with their passwords. */
export function seedLibrary(file: string): SeededMember[] {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(SCHEMA);
  const members: SeededMember[] = [];
  const insMember = db.prepare('INSERT INTO members (username, display_name, email, address, role, password_hash, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (const m of SEED_MEMBERS) {
    const password = PASSWORDS[m.username]!;
    const id = Number(insMember.run(m.username, m.display, m.email, m.address, m.role, hashPassword(password), '2024-01-15T10:00:00Z').lastInsertRowid);
    members.push({ id, username: m.username, password, role: m.role });
  }
  const insAuthor = db.prepare('INSERT INTO authors (name, bio) VALUES (?, ?)');
  const leGuin = Number(insAuthor.run('Ursula K. Le Guin', 'American author of speculative fiction.').lastInsertRowid);
  const pratchett = Number(insAuthor.run('Terry Pratchett', 'English author of the Discworld novels.').lastInsertRowid);
  const insBook = db.prepare('INSERT INTO books (title, isbn, year, author_id) VALUES (?, ?, ?, ?)');
  const books = [
    insBook.run('A Wizard of Earthsea', '9780547773742', 1968, leGuin),
    insBook.run('The Left Hand of Darkness', '9780441478125', 1969, leGuin),
    insBook.run('The Dispossessed', '9780060512750', 1974, leGuin),
    insBook.run('Guards! Guards!', '9780062225757', 1989, pratchett),
    insBook.run('Small Gods', '9780062237378', 1992, pratchett),
  ].map((r) => Number(r.lastInsertRowid));
  const [alice, bob, admin] = members;
  const insLoan = db.prepare('INSERT INTO loans (member_id, book_id, borrowed_at, due_at, returned, notes) VALUES (?, ?, ?, ?, ?, ?)');
  insLoan.run(alice!.id, books[0], '2024-05-02T09:30:00Z', '2024-05-23T18:00:00Z', 1, 'Alice asked us to call 07700 900123 when the sequel arrives.');
  insLoan.run(alice!.id, books[3], '2024-06-10T14:05:00Z', '2024-07-01T18:00:00Z', 0, 'Late fee waived: medical reasons (see letter on file).');
  insLoan.run(bob!.id, books[1], '2024-06-12T11:00:00Z', '2024-07-03T18:00:00Z', 0, 'Bob pays by card ending 4242; deliver to his office.');
  const insReview = db.prepare('INSERT INTO reviews (book_id, member_id, rating, text) VALUES (?, ?, ?, ?)');
  insReview.run(books[0], alice!.id, 5, 'A classic. Read it twice.');
  insReview.run(books[0], bob!.id, 4, 'Slow start, great ending.');
  insReview.run(books[3], admin!.id, 5, 'The best of the City Watch books.');
  const insSetting = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
  insSetting.run('library', JSON.stringify(DEFAULT_SETTINGS));
  db.close();
  return members;
}

/** Typed access to the library database. Counts its queries, so tests can see what a query cost. */
export class LibraryStore {
  private readonly db: Database.Database;
  /** SQL statements run so far (the flawed search's worker queries included by the caller). */
  queries = 0;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
  }

  private get<T>(sql: string, ...args: unknown[]): T | undefined {
    this.queries++;
    return this.db.prepare(sql).get(...args) as T | undefined;
  }

  private all<T>(sql: string, ...args: unknown[]): T[] {
    this.queries++;
    return this.db.prepare(sql).all(...args) as T[];
  }

  private run(sql: string, ...args: unknown[]): Database.RunResult {
    this.queries++;
    return this.db.prepare(sql).run(...args);
  }

  member = (id: number) => this.get<MemberRow>('SELECT * FROM members WHERE id = ?', id);
  memberByName = (username: string) => this.get<MemberRow>('SELECT * FROM members WHERE username = ?', username);
  members = () => this.all<MemberRow>('SELECT * FROM members ORDER BY id');
  author = (id: number) => this.get<AuthorRow>('SELECT * FROM authors WHERE id = ?', id);
  book = (id: number) => this.get<BookRow>('SELECT * FROM books WHERE id = ?', id);
  books = (limit: number) => this.all<BookRow>('SELECT * FROM books ORDER BY id LIMIT ?', limit);
  booksByAuthor = (authorId: number) => this.all<BookRow>('SELECT * FROM books WHERE author_id = ? ORDER BY id', authorId);
  searchBooks = (title: string) => this.all<BookRow>("SELECT * FROM books WHERE title LIKE '%' || ? || '%' ORDER BY id", title);
  loan = (id: number) => this.get<LoanRow>('SELECT * FROM loans WHERE id = ?', id);
  loans = () => this.all<LoanRow>('SELECT * FROM loans ORDER BY id');
  loansOf = (memberId: number) => this.all<LoanRow>('SELECT * FROM loans WHERE member_id = ? ORDER BY id', memberId);
  loansOfBook = (bookId: number) => this.all<LoanRow>('SELECT * FROM loans WHERE book_id = ? AND returned = 0', bookId);
  reviewsOfBook = (bookId: number) => this.all<ReviewRow>('SELECT * FROM reviews WHERE book_id = ? ORDER BY id', bookId);
  reviewsOf = (memberId: number) => this.all<ReviewRow>('SELECT * FROM reviews WHERE member_id = ? ORDER BY id', memberId);

  verify(username: string, password: string): MemberRow | undefined {
    const m = this.memberByName(username);
    return m && verifyPassword(password, m.password_hash) ? m : undefined;
  }

  addMember(username: string, password: string, email: string): MemberRow {
    const id = Number(
      this.run('INSERT INTO members (username, display_name, email, address, role, password_hash, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?)', username, username, email, '', 'MEMBER', hashPassword(password), new Date().toISOString()).lastInsertRowid,
    );
    return this.member(id)!;
  }

  addLoan(memberId: number, bookId: number, notes: string | null, loanDays: number): LoanRow {
    const now = new Date();
    const due = new Date(now.getTime() + loanDays * 86_400_000);
    const id = Number(this.run('INSERT INTO loans (member_id, book_id, borrowed_at, due_at, notes) VALUES (?, ?, ?, ?, ?)', memberId, bookId, now.toISOString(), due.toISOString(), notes).lastInsertRowid);
    return this.loan(id)!;
  }

  /** Throws SQLite's own error for a rating outside 1..5 or an unknown book (CHECK and FOREIGN KEY constraints). */
  addReview(memberId: number, bookId: number, rating: number, text: string): ReviewRow {
    const id = Number(this.run('INSERT INTO reviews (book_id, member_id, rating, text) VALUES (?, ?, ?, ?)', bookId, memberId, rating, text).lastInsertRowid);
    return this.get<ReviewRow>('SELECT * FROM reviews WHERE id = ?', id)!;
  }

  deleteMember(id: number): boolean {
    return this.run('DELETE FROM members WHERE id = ?', id).changes > 0;
  }

  setRole(id: number, role: 'MEMBER' | 'ADMIN'): MemberRow | undefined {
    this.run('UPDATE members SET role = ? WHERE id = ?', role, id);
    return this.member(id);
  }

  setCover(bookId: number, url: string): void {
    this.run('UPDATE books SET cover_url = ? WHERE id = ?', url, bookId);
  }

  settings(): LibrarySettings {
    return JSON.parse(this.get<{ value: string }>("SELECT value FROM settings WHERE key = 'library'")!.value) as LibrarySettings;
  }

  updateSettings(patch: Partial<LibrarySettings>): LibrarySettings {
    const next = { ...this.settings(), ...patch };
    this.run("UPDATE settings SET value = ? WHERE key = 'library'", JSON.stringify(next));
    return next;
  }

  close(): void {
    this.db.close();
  }
}

/** An opaque bearer token. */
export function newToken(): string {
  return `lib_${crypto.randomBytes(24).toString('base64url')}`;
}
