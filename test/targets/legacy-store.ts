// The legacy account store behind the nosql-injection flaw: a document collection queried with
// MongoDB-style filters, as apps built on Mongo, NeDB or Loki do. It keeps the v1 plaintext
// passwords the old login compared against (that, too, is why it is legacy).

export interface LegacyAccount {
  userId: number;
  username: string;
  email: string;
  password: string;
}

type Doc = Record<string, unknown>;

function cmp(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

function matchOperators(value: unknown, ops: Record<string, unknown>): boolean {
  for (const [op, arg] of Object.entries(ops)) {
    switch (op) {
      case '$eq':
        if (value !== arg) return false;
        break;
      case '$ne':
        if (value === arg || (arg === null && value === undefined)) return false;
        break;
      case '$gt': {
        const c = cmp(value, arg);
        if (c === undefined || c <= 0) return false;
        break;
      }
      case '$gte': {
        const c = cmp(value, arg);
        if (c === undefined || c < 0) return false;
        break;
      }
      case '$lt': {
        const c = cmp(value, arg);
        if (c === undefined || c >= 0) return false;
        break;
      }
      case '$lte': {
        const c = cmp(value, arg);
        if (c === undefined || c > 0) return false;
        break;
      }
      case '$in':
        if (!Array.isArray(arg) || !arg.includes(value)) return false;
        break;
      case '$nin':
        if (!Array.isArray(arg) || arg.includes(value)) return false;
        break;
      case '$exists':
        if ((value !== undefined) !== Boolean(arg)) return false;
        break;
      case '$regex': {
        if (typeof value !== 'string') return false;
        const flags = typeof ops.$options === 'string' ? ops.$options.replace(/[^imsu]/g, '') : '';
        try {
          if (!new RegExp(String(arg), flags).test(value)) return false;
        } catch {
          return false;
        }
        break;
      }
      case '$options':
        break;
      default:
        throw new Error(`unknown operator ${op}`);
    }
  }
  return true;
}

/** Mongo-style matching: plain values compare by equality, objects whose keys start with $ are operators. */
export function matches(doc: Doc, query: Doc): boolean {
  for (const [field, cond] of Object.entries(query)) {
    const value = doc[field];
    if (cond && typeof cond === 'object' && !Array.isArray(cond) && Object.keys(cond).some((k) => k.startsWith('$'))) {
      if (!matchOperators(value, cond as Record<string, unknown>)) return false;
    } else if (value !== cond) {
      return false;
    }
  }
  return true;
}

export class LegacyAccounts {
  private readonly docs: LegacyAccount[] = [];

  upsert(a: LegacyAccount): void {
    const i = this.docs.findIndex((d) => d.userId === a.userId);
    if (i >= 0) this.docs[i] = a;
    else this.docs.push(a);
  }

  remove(userId: number): void {
    const i = this.docs.findIndex((d) => d.userId === userId);
    if (i >= 0) this.docs.splice(i, 1);
  }

  findOne(query: Doc): LegacyAccount | undefined {
    return this.docs.find((d) => matches(d as unknown as Doc, query));
  }
}
