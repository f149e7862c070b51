// A small GraphQL server (no dependency): a parser for the query language, a dynamic executor with
// fragments, variables, aliases and @skip/@include, and introspection built from a schema model, so
// the standard IntrospectionQuery (and any client that sends it) works against /graphql.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

// ---- lexer ----------------------------------------------------------------------------------

interface Token {
  kind: 'punct' | 'name' | 'int' | 'float' | 'string' | 'eof';
  value: string;
  pos: number;
}

export class GraphQLError extends Error {}

function lex(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\ufeff' || c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ',') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (src.startsWith('...', i)) {
      out.push({ kind: 'punct', value: '...', pos: i });
      i += 3;
      continue;
    }
    if ('!$&()[]{}:=@|'.includes(c)) {
      out.push({ kind: 'punct', value: c, pos: i++ });
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
      out.push({ kind: 'name', value: m[0], pos: i });
      i += m[0].length;
      continue;
    }
    if (/[-0-9]/.test(c)) {
      const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(src.slice(i));
      if (!m) throw new GraphQLError(`Syntax Error: Unexpected character "${c}" at ${i}.`);
      out.push({ kind: m[2] || m[3] ? 'float' : 'int', value: m[0], pos: i });
      i += m[0].length;
      continue;
    }
    if (src.startsWith('"""', i)) {
      const end = src.indexOf('"""', i + 3);
      if (end < 0) throw new GraphQLError('Syntax Error: Unterminated string.');
      out.push({ kind: 'string', value: src.slice(i + 3, end), pos: i });
      i = end + 3;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let s = '';
      while (j < src.length && src[j] !== '"') {
        if (src[j] === '\\') {
          const n = src[j + 1];
          if (n === 'u') {
            s += String.fromCharCode(parseInt(src.slice(j + 2, j + 6), 16));
            j += 6;
            continue;
          }
          s += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[n ?? ''] ?? n ?? '';
          j += 2;
          continue;
        }
        s += src[j++];
      }
      if (j >= src.length) throw new GraphQLError('Syntax Error: Unterminated string.');
      out.push({ kind: 'string', value: s, pos: i });
      i = j + 1;
      continue;
    }
    throw new GraphQLError(`Syntax Error: Unexpected character "${c}" at ${i}.`);
  }
  out.push({ kind: 'eof', value: '', pos: i });
  return out;
}

// ---- parser ---------------------------------------------------------------------------------

type Value =
  | { kind: 'var'; name: string }
  | { kind: 'lit'; value: Json }
  | { kind: 'enum'; value: string }
  | { kind: 'list'; values: Value[] }
  | { kind: 'obj'; fields: [string, Value][] };

interface Directive {
  name: string;
  args: Record<string, Value>;
}

type Selection =
  | { kind: 'field'; alias?: string; name: string; args: Record<string, Value>; directives: Directive[]; selections?: Selection[] }
  | { kind: 'spread'; name: string; directives: Directive[] }
  | { kind: 'inline'; on?: string; directives: Directive[]; selections: Selection[] };

interface Operation {
  type: string;
  name?: string;
  vars: { name: string; def?: Value }[];
  selections: Selection[];
}

interface Fragment {
  name: string;
  on: string;
  selections: Selection[];
}

class Parser {
  private i = 0;
  constructor(private readonly t: Token[]) {}

  private peek(): Token {
    return this.t[this.i]!;
  }
  private next(): Token {
    return this.t[this.i++]!;
  }
  private is(value: string): boolean {
    const p = this.peek();
    return p.kind === 'punct' && p.value === value;
  }
  private expect(value: string): void {
    const p = this.next();
    if (p.kind !== 'punct' || p.value !== value) throw new GraphQLError(`Syntax Error: Expected "${value}", found "${p.value || '<EOF>'}".`);
  }
  private name(): string {
    const p = this.next();
    if (p.kind !== 'name') throw new GraphQLError(`Syntax Error: Expected Name, found "${p.value || '<EOF>'}".`);
    return p.value;
  }

  document(): { ops: Operation[]; frags: Map<string, Fragment> } {
    const ops: Operation[] = [];
    const frags = new Map<string, Fragment>();
    while (this.peek().kind !== 'eof') {
      if (this.is('{')) {
        ops.push({ type: 'query', vars: [], selections: this.selectionSet() });
        continue;
      }
      const kw = this.name();
      if (kw === 'fragment') {
        const name = this.name();
        if (this.name() !== 'on') throw new GraphQLError('Syntax Error: Expected "on".');
        const on = this.name();
        this.directives();
        frags.set(name, { name, on, selections: this.selectionSet() });
      } else if (kw === 'query' || kw === 'mutation' || kw === 'subscription') {
        const name = this.peek().kind === 'name' ? this.name() : undefined;
        const vars: Operation['vars'] = [];
        if (this.is('(')) {
          this.next();
          while (!this.is(')')) {
            this.expect('$');
            const v = this.name();
            this.expect(':');
            this.type();
            let def: Value | undefined;
            if (this.is('=')) {
              this.next();
              def = this.value();
            }
            this.directives();
            vars.push({ name: v, def });
          }
          this.next();
        }
        this.directives();
        ops.push({ type: kw, name, vars, selections: this.selectionSet() });
      } else {
        throw new GraphQLError(`Syntax Error: Unexpected Name "${kw}".`);
      }
    }
    return { ops, frags };
  }

  private type(): void {
    if (this.is('[')) {
      this.next();
      this.type();
      this.expect(']');
    } else this.name();
    if (this.is('!')) this.next();
  }

  private directives(): Directive[] {
    const out: Directive[] = [];
    while (this.is('@')) {
      this.next();
      out.push({ name: this.name(), args: this.args() });
    }
    return out;
  }

  private args(): Record<string, Value> {
    const out: Record<string, Value> = {};
    if (!this.is('(')) return out;
    this.next();
    while (!this.is(')')) {
      const n = this.name();
      this.expect(':');
      out[n] = this.value();
    }
    this.next();
    return out;
  }

  private value(): Value {
    const p = this.peek();
    if (p.kind === 'punct' && p.value === '$') {
      this.next();
      return { kind: 'var', name: this.name() };
    }
    if (p.kind === 'punct' && p.value === '[') {
      this.next();
      const values: Value[] = [];
      while (!this.is(']')) values.push(this.value());
      this.next();
      return { kind: 'list', values };
    }
    if (p.kind === 'punct' && p.value === '{') {
      this.next();
      const fields: [string, Value][] = [];
      while (!this.is('}')) {
        const n = this.name();
        this.expect(':');
        fields.push([n, this.value()]);
      }
      this.next();
      return { kind: 'obj', fields };
    }
    this.next();
    if (p.kind === 'int') return { kind: 'lit', value: parseInt(p.value, 10) };
    if (p.kind === 'float') return { kind: 'lit', value: parseFloat(p.value) };
    if (p.kind === 'string') return { kind: 'lit', value: p.value };
    if (p.kind === 'name') {
      if (p.value === 'true' || p.value === 'false') return { kind: 'lit', value: p.value === 'true' };
      if (p.value === 'null') return { kind: 'lit', value: null };
      return { kind: 'enum', value: p.value };
    }
    throw new GraphQLError(`Syntax Error: Unexpected "${p.value || '<EOF>'}".`);
  }

  private selectionSet(): Selection[] {
    this.expect('{');
    const out: Selection[] = [];
    while (!this.is('}')) {
      if (this.is('...')) {
        this.next();
        if (this.peek().kind === 'name' && this.peek().value !== 'on') {
          out.push({ kind: 'spread', name: this.name(), directives: this.directives() });
        } else {
          let on: string | undefined;
          if (this.peek().kind === 'name') {
            this.next();
            on = this.name();
          }
          out.push({ kind: 'inline', on, directives: this.directives(), selections: this.selectionSet() });
        }
        continue;
      }
      let name = this.name();
      let alias: string | undefined;
      if (this.is(':')) {
        this.next();
        alias = name;
        name = this.name();
      }
      const args = this.args();
      const directives = this.directives();
      const selections = this.is('{') ? this.selectionSet() : undefined;
      out.push({ kind: 'field', alias, name, args, directives, selections });
    }
    this.next();
    return out;
  }
}

// ---- schema model and introspection ---------------------------------------------------------

export type TypeRef = { kind: 'NON_NULL' | 'LIST'; ofType: TypeRef } | { kind: 'NAMED'; name: string };

export interface FieldDef {
  name: string;
  type: TypeRef;
  description?: string;
  args?: { name: string; type: TypeRef; defaultValue?: string; description?: string }[];
}

export interface NamedType {
  kind: 'OBJECT' | 'SCALAR' | 'ENUM' | 'INPUT_OBJECT';
  name: string;
  description?: string;
  fields?: FieldDef[];
  enumValues?: string[];
}

export const named = (name: string): TypeRef => ({ kind: 'NAMED', name });
export const nonNull = (t: TypeRef): TypeRef => ({ kind: 'NON_NULL', ofType: t });
export const list = (t: TypeRef): TypeRef => ({ kind: 'LIST', ofType: t });

const S = (n: string) => named(n);
const NN = (n: string) => nonNull(named(n));
const NNL = (n: string) => nonNull(list(nonNull(named(n))));

const INTROSPECTION_TYPES: NamedType[] = [
  { kind: 'SCALAR', name: 'String' },
  { kind: 'SCALAR', name: 'Boolean' },
  {
    kind: 'OBJECT',
    name: '__Schema',
    fields: [
      { name: 'description', type: S('String') },
      { name: 'types', type: NNL('__Type') },
      { name: 'queryType', type: NN('__Type') },
      { name: 'mutationType', type: S('__Type') },
      { name: 'subscriptionType', type: S('__Type') },
      { name: 'directives', type: NNL('__Directive') },
    ],
  },
  {
    kind: 'OBJECT',
    name: '__Type',
    fields: [
      { name: 'kind', type: NN('__TypeKind') },
      { name: 'name', type: S('String') },
      { name: 'description', type: S('String') },
      { name: 'specifiedByURL', type: S('String') },
      { name: 'fields', type: list(NN('__Field')), args: [{ name: 'includeDeprecated', type: S('Boolean'), defaultValue: 'false' }] },
      { name: 'interfaces', type: list(NN('__Type')) },
      { name: 'possibleTypes', type: list(NN('__Type')) },
      { name: 'enumValues', type: list(NN('__EnumValue')), args: [{ name: 'includeDeprecated', type: S('Boolean'), defaultValue: 'false' }] },
      { name: 'inputFields', type: list(NN('__InputValue')), args: [{ name: 'includeDeprecated', type: S('Boolean'), defaultValue: 'false' }] },
      { name: 'ofType', type: S('__Type') },
      { name: 'isOneOf', type: S('Boolean') },
    ],
  },
  { kind: 'ENUM', name: '__TypeKind', enumValues: ['SCALAR', 'OBJECT', 'INTERFACE', 'UNION', 'ENUM', 'INPUT_OBJECT', 'LIST', 'NON_NULL'] },
  {
    kind: 'OBJECT',
    name: '__Field',
    fields: [
      { name: 'name', type: NN('String') },
      { name: 'description', type: S('String') },
      { name: 'args', type: NNL('__InputValue'), args: [{ name: 'includeDeprecated', type: S('Boolean'), defaultValue: 'false' }] },
      { name: 'type', type: NN('__Type') },
      { name: 'isDeprecated', type: NN('Boolean') },
      { name: 'deprecationReason', type: S('String') },
    ],
  },
  {
    kind: 'OBJECT',
    name: '__InputValue',
    fields: [
      { name: 'name', type: NN('String') },
      { name: 'description', type: S('String') },
      { name: 'type', type: NN('__Type') },
      { name: 'defaultValue', type: S('String') },
      { name: 'isDeprecated', type: NN('Boolean') },
      { name: 'deprecationReason', type: S('String') },
    ],
  },
  {
    kind: 'OBJECT',
    name: '__EnumValue',
    fields: [
      { name: 'name', type: NN('String') },
      { name: 'description', type: S('String') },
      { name: 'isDeprecated', type: NN('Boolean') },
      { name: 'deprecationReason', type: S('String') },
    ],
  },
  {
    kind: 'OBJECT',
    name: '__Directive',
    fields: [
      { name: 'name', type: NN('String') },
      { name: 'description', type: S('String') },
      { name: 'isRepeatable', type: NN('Boolean') },
      { name: 'locations', type: NNL('__DirectiveLocation') },
      { name: 'args', type: NNL('__InputValue'), args: [{ name: 'includeDeprecated', type: S('Boolean'), defaultValue: 'false' }] },
    ],
  },
  {
    kind: 'ENUM',
    name: '__DirectiveLocation',
    enumValues: ['QUERY', 'MUTATION', 'SUBSCRIPTION', 'FIELD', 'FRAGMENT_DEFINITION', 'FRAGMENT_SPREAD', 'INLINE_FRAGMENT', 'VARIABLE_DEFINITION'],
  },
];

type Obj = { __typename: string } & Record<string, unknown>;

export function introspection(types: NamedType[], queryType: string) {
  const all = new Map<string, NamedType>();
  for (const t of [...types, ...INTROSPECTION_TYPES]) if (!all.has(t.name)) all.set(t.name, t);

  const inputValue = (a: NonNullable<FieldDef['args']>[number]): Obj => ({
    __typename: '__InputValue',
    name: a.name,
    description: a.description ?? null,
    type: typeValue(a.type),
    defaultValue: a.defaultValue ?? null,
    isDeprecated: false,
    deprecationReason: null,
  });

  const typeValue = (ref: TypeRef): Obj | null => {
    if (ref.kind !== 'NAMED') {
      return {
        __typename: '__Type',
        kind: ref.kind,
        name: null,
        description: null,
        specifiedByURL: null,
        fields: () => null,
        interfaces: null,
        possibleTypes: null,
        enumValues: () => null,
        inputFields: () => null,
        ofType: typeValue(ref.ofType),
        isOneOf: null,
      };
    }
    const t = all.get(ref.name);
    if (!t) return null;
    return {
      __typename: '__Type',
      kind: t.kind,
      name: t.name,
      description: t.description ?? null,
      specifiedByURL: null,
      fields: () =>
        t.kind === 'OBJECT'
          ? (t.fields ?? []).map((f) => ({
              __typename: '__Field',
              name: f.name,
              description: f.description ?? null,
              args: () => (f.args ?? []).map(inputValue),
              type: typeValue(f.type),
              isDeprecated: false,
              deprecationReason: null,
            }))
          : null,
      interfaces: t.kind === 'OBJECT' ? [] : null,
      possibleTypes: null,
      enumValues: () =>
        t.kind === 'ENUM' ? (t.enumValues ?? []).map((v) => ({ __typename: '__EnumValue', name: v, description: null, isDeprecated: false, deprecationReason: null })) : null,
      inputFields: () => (t.kind === 'INPUT_OBJECT' ? [] : null),
      ofType: null,
      isOneOf: t.kind === 'INPUT_OBJECT' ? false : null,
    };
  };

  const directive = (name: string, locations: string[], args: FieldDef['args'], description: string): Obj => ({
    __typename: '__Directive',
    name,
    description,
    isRepeatable: false,
    locations,
    args: () => (args ?? []).map(inputValue),
  });

  const schema: Obj = {
    __typename: '__Schema',
    description: null,
    types: [...all.values()].map((t) => typeValue(named(t.name))),
    queryType: typeValue(named(queryType)),
    mutationType: null,
    subscriptionType: null,
    directives: [
      directive('include', ['FIELD', 'FRAGMENT_SPREAD', 'INLINE_FRAGMENT'], [{ name: 'if', type: NN('Boolean') }], 'Directs the executor to include this field or fragment only when the `if` argument is true.'),
      directive('skip', ['FIELD', 'FRAGMENT_SPREAD', 'INLINE_FRAGMENT'], [{ name: 'if', type: NN('Boolean') }], 'Directs the executor to skip this field or fragment when the `if` argument is true.'),
    ],
  };
  return { schema, type: (name: string) => typeValue(named(name)) };
}

// ---- executor -----------------------------------------------------------------------------------

export interface GraphQLRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface GraphQLResponse {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[] }[];
}

export async function execute(req: GraphQLRequest, root: Obj): Promise<GraphQLResponse> {
  if (typeof req.query !== 'string' || !req.query.trim()) return { errors: [{ message: 'Must provide query string.' }] };
  let doc: ReturnType<Parser['document']>;
  try {
    doc = new Parser(lex(req.query)).document();
  } catch (e) {
    return { errors: [{ message: (e as Error).message }] };
  }
  const op = typeof req.operationName === 'string' ? doc.ops.find((o) => o.name === req.operationName) : doc.ops.length === 1 ? doc.ops[0] : undefined;
  if (!op) return { errors: [{ message: doc.ops.length ? 'Must provide operation name if query contains multiple operations.' : 'Must provide an operation.' }] };
  if (op.type !== 'query') return { errors: [{ message: `Schema is not configured for ${op.type}s.` }] };
  const given = req.variables && typeof req.variables === 'object' ? (req.variables as Record<string, unknown>) : {};
  const errors: NonNullable<GraphQLResponse['errors']> = [];
  const vars: Record<string, unknown> = {};

  const evalValue = (v: Value): unknown => {
    switch (v.kind) {
      case 'var':
        return vars[v.name] ?? null;
      case 'lit':
        return v.value;
      case 'enum':
        return v.value;
      case 'list':
        return v.values.map(evalValue);
      case 'obj':
        return Object.fromEntries(v.fields.map(([k, x]) => [k, evalValue(x)]));
    }
  };
  for (const d of op.vars) vars[d.name] = d.name in given ? given[d.name] : d.def ? evalValue(d.def) : null;

  const included = (ds: Directive[]) =>
    ds.every((d) => (d.name === 'skip' ? evalValue(d.args.if ?? { kind: 'lit', value: false }) !== true : d.name === 'include' ? evalValue(d.args.if ?? { kind: 'lit', value: true }) === true : true));

  const collect = (typename: string, sels: Selection[], out: Extract<Selection, { kind: 'field' }>[], seen: Set<string>) => {
    for (const s of sels) {
      if (!included(s.directives)) continue;
      if (s.kind === 'field') out.push(s);
      else if (s.kind === 'inline') {
        if (!s.on || s.on === typename) collect(typename, s.selections, out, seen);
      } else {
        const f = doc.frags.get(s.name);
        if (!f) throw new GraphQLError(`Unknown fragment "${s.name}".`);
        if (seen.has(s.name)) continue;
        if (f.on === typename) collect(typename, f.selections, out, new Set([...seen, s.name]));
      }
    }
  };

  const complete = async (value: unknown, sels: Selection[] | undefined, path: (string | number)[]): Promise<unknown> => {
    if (value === null || value === undefined) return null;
    if (Array.isArray(value)) return Promise.all(value.map((v, i) => complete(v, sels, [...path, i])));
    if (typeof value === 'object' && '__typename' in value) {
      if (!sels) {
        errors.push({ message: `Field "${String(path.at(-1))}" of type "${(value as Obj).__typename}" must have a selection of subfields.`, path });
        return null;
      }
      return run(value as Obj, sels, path);
    }
    return value;
  };

  const run = async (obj: Obj, sels: Selection[], path: (string | number)[]): Promise<Record<string, unknown>> => {
    const fields: Extract<Selection, { kind: 'field' }>[] = [];
    collect(obj.__typename, sels, fields, new Set());
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const key = f.alias ?? f.name;
      if (f.name === '__typename') {
        out[key] = obj.__typename;
        continue;
      }
      if (!(f.name in obj)) {
        errors.push({ message: `Cannot query field "${f.name}" on type "${obj.__typename}".`, path: [...path, key] });
        out[key] = null;
        continue;
      }
      try {
        let v = obj[f.name];
        if (typeof v === 'function') v = await (v as (a: Record<string, unknown>) => unknown)(Object.fromEntries(Object.entries(f.args).map(([k, x]) => [k, evalValue(x)])));
        out[key] = await complete(v, f.selections, [...path, key]);
      } catch (e) {
        errors.push({ message: (e as Error).message, path: [...path, key] });
        out[key] = null;
      }
    }
    return out;
  };

  try {
    const data = await run(root, op.selections, []);
    return errors.length ? { data, errors } : { data };
  } catch (e) {
    return { errors: [{ message: (e as Error).message }] };
  }
}

export const STANDARD_INTROSPECTION_QUERY = `
query IntrospectionQuery {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}
`;
