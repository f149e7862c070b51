// Default flags of a GraphQL operation (issue 20), mirroring the REST heuristics of default-flags.ts with
// the same word lists. Every GraphQL operation shares one method and path, so the words come from the
// root field's name (and the root type's, "AdminQuery"), its arguments and their input objects:
// - SEC_MISC, IIM and URC always, like REST's SEC_MISC and IIM: introspection, suggestions, debug
//   `errors` and deprecated fields concern every operation, and any selection can be nested or aliased
//   into an expensive query (lists and batching are URC's too);
// - BOLA: an id-like or `ID` argument, or one inside an input object unless the mutation creates (REST
//   likewise ignores ids in the body of a create); in a login or token operation only `ID` arguments
//   count (its username is the caller's own);
// - BKEN_AUTH: the operation needs credentials by the API's default, or its name has auth words (login,
//   reset, token...) or code words (code, otp, verify...): logins and code checks are brute-forced;
// - BOPLA: mutations (they write properties) and operations returning objects (they expose them), as
//   REST flags writes and object responses;
// - BFLA: mutations (REST's PUT/PATCH/DELETE) and admin-like names, queries included;
// - UABF: mutations named for a business flow and not a read (REST's rule), and code checks;
// - SSRF: a URL-like argument or input field (by name, by URI format or URL scalar); UCAPI with it, or
//   with integration words in the name, as for REST.

import type { Flag } from '../../shared/constants';
import type { ApiSecurity, EndpointParameter, GraphqlOperation, JsonSchema } from '../../shared/contract';
import { ADMIN, AUTH_ROUTE, BUSINESS, INTEGRATION, isIdLikeName, isUrlish, nameIs, READ_ACTION, requiresAuth, wordsOf } from './default-flags';
import type { ExtractedEndpoint } from './result';
import { isObject, obj } from './values';

/** Code checks: one guess per call, so unlimited calls (or a batch of aliases) brute-force them. */
const CODE = / (code|codes|otp|totp|pin|passcode|verify|verification|2fa|mfa) /;
/** Mutations that make a new object: ids in their input name what it belongs to, as a REST create's body. */
const CREATE = / (create|add|new|insert|register|sign ?up|submit|post|upload|import) /;

/** Input fields of an argument's schema, two levels deep (lists looked through), with their schemas. */
function inputFields(schema: JsonSchema | null, out: [string, JsonSchema | null][] = [], depth = 0): [string, JsonSchema | null][] {
  if (!isObject(schema) || depth > 2 || out.length > 300) return out;
  if (isObject(schema.items)) return inputFields(schema.items as JsonSchema, out, depth);
  const props = obj(schema.properties);
  if (!props) return out;
  for (const name of Object.keys(props)) {
    const p = (obj(props[name]) ?? null) as JsonSchema | null;
    out.push([name, p]);
    inputFields(p, out, depth + 1);
  }
  return out;
}

/** The GraphQL named type a schema carries ("ID" for "[ID!]!"). */
function namedTypeOf(schema: JsonSchema | null): string {
  const t = schema?.['x-graphql-type'];
  return typeof t === 'string' ? t.replace(/[[\]!\s]/g, '') : '';
}

const selectsObject = (name: string, schema: JsonSchema | null): boolean => isIdLikeName(name) || namedTypeOf(schema) === 'ID';
const urlLike = (name: string, schema: JsonSchema | null): boolean => nameIs(name, 'url') || isUrlish(schema, undefined);

/** Whether the operation's response schema (data.<field>) is an object or a list of objects. */
function returnsObjects(e: ExtractedEndpoint, field: string): boolean {
  const data = obj(obj(e.responses['200']?.schema?.properties)?.data);
  let s: unknown = obj(data?.properties)?.[field];
  for (let i = 0; i < 10 && isObject(s) && isObject(s.items); i += 1) s = s.items;
  return isObject(s) && isObject(s.properties);
}

export function graphqlDefaultFlags(e: ExtractedEndpoint, op: GraphqlOperation, api: ApiSecurity): Flag[] {
  const name = wordsOf(op.field);
  const nameAndRoot = `${name}${wordsOf(op.root_type)}`;
  const mutation = op.kind === 'mutation';
  const args: EndpointParameter[] = e.parameters.filter((p) => p.in === 'argument');
  const nested = args.flatMap((p) => inputFields(p.schema));
  const flags = new Set<Flag>(['SEC_MISC', 'IIM', 'URC']);

  const authOperation = AUTH_ROUTE.test(name);
  // A login's username names the caller, not an object of someone else: only a real ID selects one there.
  const selects = authOperation ? (n: string, s: JsonSchema | null) => namedTypeOf(s) === 'ID' : selectsObject;
  if (args.some((p) => selects(p.name, p.schema)) || (!(mutation && CREATE.test(name)) && nested.some(([n, s]) => selects(n, s)))) flags.add('BOLA');

  const codeCheck = CODE.test(name);
  if (requiresAuth(e.security, api) || authOperation || codeCheck) flags.add('BKEN_AUTH');

  if (mutation || returnsObjects(e, op.field)) flags.add('BOPLA');

  if (mutation || ADMIN.test(nameAndRoot)) flags.add('BFLA');

  if ((mutation && BUSINESS.test(name) && !READ_ACTION.test(name)) || codeCheck) flags.add('UABF');

  const urlArgument = args.some((p) => urlLike(p.name, p.schema)) || nested.some(([n, s]) => urlLike(n, s));
  if (urlArgument) flags.add('SSRF');
  if (urlArgument || INTEGRATION.test(nameAndRoot)) flags.add('UCAPI');

  return [...flags];
}
