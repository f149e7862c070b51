// The target's data: a real SQLite file (better-sqlite3) seeded with the same rows in both modes, and
// a worker thread that runs the flawed string-concatenated queries on its own read-only connection,
// so an injected sleep() delays only the injected request, never the rest of the target.

import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

export type Db = Database.Database;

const SCHEMA = `
CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL CHECK (length(display_name) <= 64),
  phone TEXT,
  role TEXT NOT NULL DEFAULT 'customer',
  is_admin INTEGER NOT NULL DEFAULT 0,
  verified INTEGER NOT NULL DEFAULT 0,
  balance_cents INTEGER NOT NULL DEFAULT 0,
  credits INTEGER NOT NULL DEFAULT 0,
  password_hash TEXT NOT NULL,
  api_key TEXT NOT NULL UNIQUE,
  vat_id TEXT,
  avatar_url TEXT,
  last_login_ip TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE addresses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  label TEXT NOT NULL, line1 TEXT NOT NULL, city TEXT NOT NULL, postcode TEXT NOT NULL, country TEXT NOT NULL
);
CREATE TABLE products (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL, description TEXT NOT NULL, category TEXT NOT NULL,
  price_cents INTEGER NOT NULL, stock INTEGER NOT NULL,
  votes_up INTEGER NOT NULL DEFAULT 0, votes_down INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX products_category ON products(category);
CREATE TABLE reviews (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  product_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
  rating INTEGER NOT NULL, comment TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE INDEX reviews_product ON reviews(product_id);
CREATE TABLE votes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  product_id INTEGER NOT NULL, user_id INTEGER NOT NULL, direction TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE orders (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  owner_id INTEGER NOT NULL,
  status TEXT NOT NULL,
  reference TEXT NOT NULL,
  items_json TEXT NOT NULL,
  total_cents INTEGER NOT NULL,
  currency TEXT NOT NULL DEFAULT 'GBP',
  shipping_address_id INTEGER,
  note TEXT,
  internal_notes TEXT,
  fraud_score REAL,
  supplier_cost_cents INTEGER,
  warehouse_id TEXT,
  created_at TEXT NOT NULL,
  paid_at TEXT,
  deleted INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE notes (
  id TEXT PRIMARY KEY,
  owner_id INTEGER NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  tags_json TEXT NOT NULL DEFAULT '[]',
  priority INTEGER NOT NULL DEFAULT 3,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE TABLE documents (
  id TEXT PRIMARY KEY,
  owner_id INTEGER NOT NULL,
  title TEXT NOT NULL, file_name TEXT NOT NULL, content TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE payment_methods (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL,
  brand TEXT NOT NULL, card_number TEXT NOT NULL, cvc TEXT NOT NULL,
  exp_month INTEGER NOT NULL, exp_year INTEGER NOT NULL, holder TEXT NOT NULL
);
CREATE TABLE integrations (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL,
  provider TEXT NOT NULL, public_key TEXT NOT NULL, private_key TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE activity (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL, type TEXT NOT NULL, detail TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE INDEX activity_user ON activity(user_id);
CREATE TABLE transfers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  from_user_id INTEGER NOT NULL, to_user_id INTEGER NOT NULL,
  amount_cents INTEGER NOT NULL, memo TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL
);
CREATE TABLE password_resets (
  token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL, expires_at INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE otps (
  user_id INTEGER PRIMARY KEY, code TEXT NOT NULL, expires_at INTEGER NOT NULL
);
`;

export const CATEGORIES = ['electronics', 'books', 'home', 'garden', 'toys', 'sports', 'grocery', 'fashion'] as const;
export const ORDER_STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'] as const;

export interface SeedUser {
  id: number;
  username: string;
  password: string;
  email: string;
  displayName: string;
  role: 'admin' | 'customer';
  apiKey: string;
}

/** Fixed ids so tests and docs can name seeded objects. */
export const SEED = {
  users: { admin: 1, alice: 2, bob: 3, carol: 4 },
  orders: { alice: [1001, 1003, 1004, 1006, 1008], bob: [1002, 1005, 1007] },
  notes: {
    alice: ['a11ce000-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000002'],
    bob: ['b0b00000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002'],
  },
  documents: { alice: ['doc_7f3a9c21e4', 'doc_7f3a9c21e5'], bob: ['doc_b81e44d0a2'] },
  addresses: { alice: [201, 202], bob: [203], carol: [204] },
  paymentMethods: { alice: 'pm_1Nalice4Visa', bob: 'pm_1Nbob9Master' },
  productCount: 500,
  /** Product 1 has this many reviews (enough to overflow page_size). */
  product1Reviews: 120,
  activityPerUser: 250,
} as const;

const ADJECTIVES = ['Aurora', 'Nimbus', 'Granite', 'Velvet', 'Solar', 'Harbor', 'Cobalt', 'Juniper', 'Ember', 'Tundra', 'Meadow', 'Quartz', 'Saffron', 'Willow', 'Zephyr', 'Orchid', 'Basalt', 'Lumen', 'Maple', 'Drift'];
const NOUNS: Record<(typeof CATEGORIES)[number], string[]> = {
  electronics: ['Wireless Headphones', 'Smart Speaker', 'USB-C Charger', 'E-Reader', 'Action Camera'],
  books: ['Cookbook', 'Field Guide', 'Travel Journal', 'Poetry Collection', 'Atlas'],
  home: ['Table Lamp', 'Linen Throw', 'Ceramic Vase', 'Wall Clock', 'Scented Candle'],
  garden: ['Pruning Shears', 'Raised Planter', 'Hose Reel', 'Bird Feeder', 'Seed Kit'],
  toys: ['Building Blocks', 'Puzzle Box', 'Kite', 'Plush Fox', 'Marble Run'],
  sports: ['Yoga Mat', 'Trail Shoes', 'Water Bottle', 'Climbing Chalk', 'Jump Rope'],
  grocery: ['Ground Coffee', 'Olive Oil', 'Green Tea', 'Dark Chocolate', 'Honey Jar'],
  fashion: ['Silk Scarf', 'Wool Beanie', 'Leather Belt', 'Denim Jacket', 'Canvas Tote'],
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let alt = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = Number(digits[i]);
    if (alt) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    alt = !alt;
  }
  return sum % 10 === 0;
}

/** 16-digit order references that deliberately fail the Luhn check (a false-positive trap). */
export function orderReference(orderId: number): string {
  const base = `7311${String(orderId).padStart(11, '0')}`;
  for (let d = 0; d < 10; d++) if (!luhnValid(base + d)) return base + d;
  return `${base}0`;
}

function iso(daysAgo: number, minutes = 0): string {
  return new Date(Date.UTC(2026, 2, 1, 9, 0) - daysAgo * 86_400_000 + minutes * 60_000).toISOString();
}

export interface SeedOptions {
  hashPassword: (password: string) => string;
}

export interface SeedResult {
  users: Record<'admin' | 'alice' | 'bob' | 'carol', SeedUser>;
}

export function openDb(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  return db;
}

export function seed(db: Db, opts: SeedOptions): SeedResult {
  db.exec(SCHEMA);
  const people = [
    { key: 'admin', username: 'admin', email: 'admin@acme.test', displayName: 'Shop Admin', role: 'admin', isAdmin: 1, password: 'Adm1n!Acme-2026', phone: '+44 20 7946 0000', vat: null, balance: 0, credits: 0 },
    { key: 'alice', username: 'alice', email: 'alice@acme.test', displayName: 'Alice Anderson', role: 'customer', isAdmin: 0, password: 'Alice#Shop-2026', phone: '+44 20 7946 0011', vat: 'GB 123 4567 89', balance: 1_000_000, credits: 120 },
    { key: 'bob', username: 'bob', email: 'bob@acme.test', displayName: 'Bob Brown', role: 'customer', isAdmin: 0, password: 'Bob#Shop-2026', phone: '+1 415 555 0142', vat: 'US 12-3456789', balance: 1_000_000, credits: 40 },
    { key: 'carol', username: 'carol', email: 'carol@acme.test', displayName: 'Carol Chen', role: 'customer', isAdmin: 0, password: 'Carol#Shop-2026', phone: '+61 2 5550 1234', vat: null, balance: 50_000, credits: 5 },
  ] as const;
  const users = {} as SeedResult['users'];
  const insertUser = db.prepare(
    `INSERT INTO users (username, email, display_name, phone, role, is_admin, verified, balance_cents, credits, password_hash, api_key, vat_id, last_login_ip, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)`,
  );

  const tx = db.transaction(() => {
    people.forEach((p, i) => {
      const apiKey = `ak_live_${crypto.randomBytes(18).toString('hex')}`;
      const id = Number(
        insertUser.run(p.username, p.email, p.displayName, p.phone, p.role, p.isAdmin, p.balance, p.credits, opts.hashPassword(p.password), apiKey, p.vat, `203.0.113.${10 + i}`, iso(400 - i * 30))
          .lastInsertRowid,
      );
      users[p.key] = { id, username: p.username, password: p.password, email: p.email, displayName: p.displayName, role: p.role, apiKey };
    });

    const addr = db.prepare('INSERT INTO addresses (id, user_id, label, line1, city, postcode, country) VALUES (?, ?, ?, ?, ?, ?, ?)');
    addr.run(201, users.alice.id, 'Home', '12 Rosebank Lane', 'London', 'SW1A 1AA', 'GB');
    addr.run(202, users.alice.id, 'Office', '1 Canary Wharf, Floor 18', 'London', 'E14 5AB', 'GB');
    addr.run(203, users.bob.id, 'Home', '742 Evergreen Terrace', 'Springfield', '97403', 'US');
    addr.run(204, users.carol.id, 'Home', '88 Harbour Street', 'Sydney', '2000', 'AU');

    const product = db.prepare('INSERT INTO products (name, description, category, price_cents, stock, votes_up, votes_down) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (let i = 1; i <= SEED.productCount; i++) {
      const cat = CATEGORIES[(i - 1) % CATEGORIES.length]!;
      const adj = ADJECTIVES[(i * 7) % ADJECTIVES.length]!;
      const noun = NOUNS[cat][Math.floor(i / CATEGORIES.length) % 5]!;
      const name = `${adj} ${noun}${i > 200 ? ` Mk ${Math.floor(i / 100)}` : ''}`;
      const description = `The ${adj.toLowerCase()} edition of our ${noun.toLowerCase()}, chosen by the Acme ${cat} team. Free returns within 30 days.`;
      product.run(name, description, cat, 499 + ((i * 3719) % 19_500), (i * 13) % 240, (i * 5) % 37, (i * 3) % 11);
    }

    const review = db.prepare('INSERT INTO reviews (product_id, user_id, rating, comment, created_at) VALUES (?, ?, ?, ?, ?)');
    const reviewers = [users.alice.id, users.bob.id, users.carol.id];
    const comments = ['Exactly as described.', 'Arrived quickly, well packed.', 'Good value for the price.', 'Would buy again.', 'Smaller than I expected.'];
    for (let n = 0; n < SEED.product1Reviews; n++) review.run(1, reviewers[n % 3], 1 + (n % 5), comments[n % comments.length], iso(200 - n));
    for (let p = 2; p <= SEED.productCount; p++) {
      for (let n = 0; n < p % 4; n++) review.run(p, reviewers[(p + n) % 3], 1 + ((p + n) % 5), comments[(p + n) % comments.length], iso(100 - n, p));
    }

    const order = db.prepare(
      `INSERT INTO orders (id, owner_id, status, reference, items_json, total_cents, currency, shipping_address_id, note, internal_notes, fraud_score, supplier_cost_cents, warehouse_id, created_at, paid_at)
       VALUES (?, ?, ?, ?, ?, ?, 'GBP', ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const priceOf = db.prepare<[number], { name: string; price_cents: number }>('SELECT name, price_cents FROM products WHERE id = ?');
    const orderRows: [number, number, string, number[], number, string][] = [
      [1001, users.alice.id, 'delivered', [12, 48], 201, 'Leave with the concierge'],
      [1002, users.bob.id, 'delivered', [7], 203, 'Ring twice'],
      [1003, users.alice.id, 'shipped', [101, 102, 103], 202, 'Gift wrap, no invoice in the box'],
      [1004, users.alice.id, 'paid', [250], 201, ''],
      [1005, users.bob.id, 'paid', [33, 34], 203, 'Back door'],
      [1006, users.alice.id, 'pending', [5], 201, ''],
      [1007, users.bob.id, 'pending', [400, 401], 203, ''],
      [1008, users.alice.id, 'cancelled', [77], 202, 'Cancelled: found cheaper'],
    ];
    for (const [id, owner, status, productIds, addressId, note] of orderRows) {
      const items = productIds.map((pid, k) => {
        const p = priceOf.get(pid)!;
        return { productId: pid, name: p.name, quantity: 1 + (k % 2), unitPrice: p.price_cents / 100 };
      });
      const total = items.reduce((s, it) => s + Math.round(it.unitPrice * 100) * it.quantity, 0);
      const days = 60 - (id - 1000) * 5;
      order.run(id, owner, status, orderReference(id), JSON.stringify(items), total, addressId, note, owner === users.alice.id ? 'VIP customer, ships from the London hub' : 'Watch list: two chargebacks in 2025', owner === users.alice.id ? 0.08 : 0.71, Math.round(total * 0.55), owner === users.alice.id ? 'LDN-3' : 'SFO-1', iso(days), status === 'pending' || status === 'cancelled' ? null : iso(days, 12));
    }

    const note = db.prepare('INSERT INTO notes (id, owner_id, title, body, tags_json, priority, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    note.run(SEED.notes.alice[0], users.alice.id, 'Gift ideas for Mum', 'Silk scarf from the autumn catalogue, size M. Budget 80 GBP.', '["gifts","family"]', 2, iso(20), iso(20));
    note.run(SEED.notes.alice[1], users.alice.id, 'Returns to process', 'Return the Granite Kite (order 1003) before 31 March.', '["returns"]', 1, iso(12), iso(11));
    note.run(SEED.notes.bob[0], users.bob.id, 'Warehouse pickup', 'Pickup code 4471, bay 9, ask for Marguerite.', '["pickup"]', 1, iso(9), iso(9));
    note.run(SEED.notes.bob[1], users.bob.id, 'Birthday list', 'Trail shoes size 44, climbing chalk.', '["wishlist"]', 4, iso(5), iso(4));

    const doc = db.prepare('INSERT INTO documents (id, owner_id, title, file_name, content, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    doc.run(SEED.documents.alice[0], users.alice.id, 'Purchase agreement 1003', 'purchase-agreement-1003.txt', 'Purchase agreement between Acme Shop Ltd and Alice Anderson, 12 Rosebank Lane, London SW1A 1AA. Order 1003, three items, paid by Visa ending 6467.', iso(40));
    doc.run(SEED.documents.alice[1], users.alice.id, 'Warranty certificate', 'warranty-1001.txt', 'Extended warranty for order 1001 issued to Alice Anderson (alice@acme.test), valid until 2029-03-01.', iso(30));
    doc.run(SEED.documents.bob[0], users.bob.id, 'Return authorisation 1002', 'rma-1002.txt', 'Return authorisation RMA-88213 for Bob Brown, 742 Evergreen Terrace, Springfield 97403. Refund to Mastercard ending 9903.', iso(15));

    const pm = db.prepare('INSERT INTO payment_methods (id, user_id, brand, card_number, cvc, exp_month, exp_year, holder) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    pm.run(SEED.paymentMethods.alice, users.alice.id, 'visa', '4539148803436467', '731', 9, 2029, 'ALICE ANDERSON');
    pm.run(SEED.paymentMethods.bob, users.bob.id, 'mastercard', '5425233430109903', '284', 4, 2028, 'BOB BROWN');

    const integ = db.prepare('INSERT INTO integrations (id, user_id, provider, public_key, private_key, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (const [id, who, provider] of [
      ['int_alice_labels', users.alice.id, 'parcelforce-labels'],
      ['int_bob_labels', users.bob.id, 'ups-labels'],
    ] as const) {
      const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
      integ.run(id, who, provider, publicKey.export({ type: 'spki', format: 'pem' }).toString(), privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), iso(90));
    }

    const act = db.prepare('INSERT INTO activity (user_id, type, detail, created_at) VALUES (?, ?, ?, ?)');
    const kinds = ['login', 'view_product', 'add_to_cart', 'checkout', 'review'];
    for (const who of [users.alice, users.bob]) {
      for (let n = 0; n < SEED.activityPerUser; n++) {
        const type = kinds[n % kinds.length]!;
        act.run(who.id, type, type === 'login' ? `Signed in from 203.0.113.${who.id}` : `Product ${1 + ((n * 17) % 500)}`, iso(SEED.activityPerUser - n, who.id));
      }
    }

    const transfer = db.prepare('INSERT INTO transfers (from_user_id, to_user_id, amount_cents, memo, created_at) VALUES (?, ?, ?, ?, ?)');
    transfer.run(users.alice.id, users.carol.id, 2500, 'Concert tickets', iso(14));
    transfer.run(users.bob.id, users.alice.id, 1200, 'Lunch', iso(7));
  });
  tx();
  return { users };
}

/** Seeds an in-memory database and returns its image, to be written out for every target. */
export function buildTemplate(opts: SeedOptions): SeedResult & { image: Buffer } {
  const db = new Database(':memory:');
  try {
    const result = seed(db, opts);
    return { ...result, image: db.serialize() };
  } finally {
    db.close();
  }
}

export function newId(): string {
  return crypto.randomUUID();
}

// ---- the flawed query runner --------------------------------------------------------------------

export interface SqlFailure {
  name: string;
  message: string;
  code?: string;
}

export class SqlError extends Error {
  constructor(public readonly failure: SqlFailure) {
    super(failure.message);
    this.name = failure.name;
  }
}

// sleep(seconds) is registered as SQLite has none; it delays once per statement (capped at 10 s),
// so a payload evaluated for every row still delays by the time it asks for.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
let slept = false;
const gate = new Int32Array(new SharedArrayBuffer(4));
db.function('sleep', { deterministic: false }, (s) => {
  if (slept) return 0;
  slept = true;
  const ms = Math.min(Math.max(Number(s) || 0, 0), 10) * 1000;
  if (ms > 0) Atomics.wait(gate, 0, 0, ms);
  return 0;
});
parentPort.on('message', ({ id, sql }) => {
  slept = false;
  try {
    parentPort.postMessage({ id, rows: db.prepare(sql).all() });
  } catch (e) {
    parentPort.postMessage({ id, error: { name: e.name, message: e.message, code: e.code } });
  }
});
`;

/** Runs SQL text as given (that is the point) on a worker-owned read-only connection. */
export class UnsafeSql {
  private worker: Worker | undefined;
  private pending = new Map<number, { resolve: (rows: Record<string, unknown>[]) => void; reject: (e: Error) => void }>();
  private seq = 0;

  constructor(private readonly file: string) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file: this.file } });
    w.unref();
    w.on('message', (m: { id: number; rows?: Record<string, unknown>[]; error?: SqlFailure }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.reject(new SqlError(m.error));
      else p.resolve(m.rows ?? []);
    });
    w.on('error', (e) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      this.worker = undefined;
    });
    this.worker = w;
    return w;
  }

  query(sql: string): Promise<Record<string, unknown>[]> {
    const w = this.start();
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.ref();
      w.postMessage({ id, sql });
    }).finally(() => {
      if (this.pending.size === 0) this.worker?.unref();
    }) as Promise<Record<string, unknown>[]>;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('target closed'));
    this.pending.clear();
    if (w) await w.terminate();
  }
}
