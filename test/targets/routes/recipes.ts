// The recipe search, written as many apps write a LIKE search: the term concatenated into the SQL
// text, with the soft-delete filter after it (sqli-search-hidden). A broken statement answers a generic
// 500, so no database error gives it away. Hardened: bound parameters.

import Database from 'better-sqlite3';
import type { Ctx, TargetState } from '../context';
import { json, type Router, ValidationError } from '../http';

const RECIPES: [string, string, string | null][] = [
  ['Tomato soup', 'A quick soup with basil', null],
  ['Onion soup', 'French onion soup with bread', null],
  ['Lemon tart', 'Shortcrust and lemon curd', null],
  ['Secret sauce (withdrawn)', 'The recipe we took down', '2026-01-10T09:00:00.000Z'],
  ['Mushroom risotto', 'Arborio rice and porcini', null],
  ['Holiday pudding (draft)', 'Not yet announced', '2026-02-01T09:00:00.000Z'],
];

interface RecipeRow {
  id: number;
  title: string;
  summary: string;
  deletedAt: string | null;
}

export function registerRecipes(r: Router<Ctx>, t: TargetState): void {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, summary TEXT NOT NULL, deleted_at TEXT)');
  const insert = db.prepare('INSERT INTO recipes (title, summary, deleted_at) VALUES (?, ?, ?)');
  for (const row of RECIPES) insert.run(...row);
  const COLUMNS = 'id, title, summary, deleted_at AS deletedAt';

  r.get('/api/v2/recipes', async (ctx) => {
    await ctx.user();
    const q = ctx.query.get('q') ?? '';
    if (q.length > 100) throw new ValidationError([{ field: 'q', message: 'must be at most 100 characters' }]);
    let items: RecipeRow[];
    if (t.has('sqli-search-hidden')) {
      try {
        items = db.prepare(`SELECT ${COLUMNS} FROM recipes WHERE ((title LIKE '%${q}%' OR summary LIKE '%${q}%') AND deleted_at IS NULL) ORDER BY title`).all() as RecipeRow[];
      } catch {
        return json(500, { error: 'internal_error', message: 'Something went wrong.' });
      }
    } else {
      const like = `%${q}%`;
      items = db.prepare(`SELECT ${COLUMNS} FROM recipes WHERE ((title LIKE ? OR summary LIKE ?) AND deleted_at IS NULL) ORDER BY title`).all(like, like) as RecipeRow[];
    }
    return json(200, { items });
  });
}
