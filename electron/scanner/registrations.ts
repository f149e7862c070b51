// The operations that register users, and the users the scan's requests registered through them.
// With sign-up off the scan registers nobody: the engine withholds every request to one of these
// operations, whichever check makes it. With sign-up on, a check may still send to them (an
// injection test of the sign-up form, the flow-throttling burst); each such request carries its own
// random password, and every user it registered is recorded like the Accounts service's own.

import type { Endpoint, JsonSchema } from '../../shared/contract';
import { graphqlOperationName } from '../../shared/display';
import type { SignupSetting } from '../../shared/identities';
import { describeEndpoint } from './checks/common/helpers';
import type { RegistrationOperation } from './http/engine';
import type { Exchange } from './http/exchange';
import { failedInBody, findSignupOperation, propsOf, registeredId } from './identities/accounts';
import type { CreatedAccount } from './identities/session';
import { isPasswordKey } from './passwords';

/** A path segment that names a sign-up outright: any POST there creates an account. */
const SIGNUP_WORD = /^(sign-?up|signups?|register|registration|registrations|join|enrol+(ment)?)$/i;
/** A collection of accounts: a POST there with a password creates one. */
const ACCOUNTS_SEGMENT = /^(users?|accounts?|members?|customers?|people|persons?|employees?|players?|clients?|subscribers?|profiles?)$/i;
/** Paths about signing in or recovering an account: they create none. */
const NOT_REGISTRATION = /log-?in|sign-?in|signin|session|token|password|passwd|reset|forgot|verify|verification|confirm|otp|2fa|mfa|logout/i;
/** GraphQL mutations that register: register, signUp, createUser, addAccount, join... */
const REGISTRATION_MUTATION = /^(register|sign_?up|signup|join|enrol+|create_?(user|account|member|customer|player|profile)|add_?(user|account|member|customer))/i;
const USER_KEY = /^(user_?name|login|handle|nick(name)?|user|email|e-?mail|email_?address|mail)$/i;
const EMAIL_KEY = /mail/i;

/** Whether a body schema has a field the test accepts (at the top level or inside one wrapper object). */
function takesField(schema: JsonSchema | null, test: (name: string) => boolean): boolean {
  const top = propsOf(schema);
  if (!top) return false;
  if (Object.keys(top).some(test)) return true;
  return Object.values(top).some((v) => Object.keys(propsOf(v) ?? {}).some(test));
}

const takesPassword = (schema: JsonSchema | null) => takesField(schema, isPasswordKey);
const takesAccountName = (schema: JsonSchema | null) => takesField(schema, (k) => USER_KEY.test(k));

function lastStaticSegment(path: string): string {
  return path.split('/').filter((s) => s && !s.startsWith('{')).at(-1) ?? '';
}

/** A GraphQL mutation that registers a user: named like it, and taking a password (or named a sign-up outright). */
function registersByGraphql(e: Endpoint): boolean {
  const op = e.graphql;
  if (!op || op.kind !== 'mutation' || !REGISTRATION_MUTATION.test(op.field)) return false;
  if (/^(register|sign_?up|signup)/i.test(op.field)) return true;
  return e.parameters.some((p) => p.in === 'argument' && (isPasswordKey(p.name) || Object.keys(propsOf(p.schema) ?? {}).some(isPasswordKey)));
}

/** Whether a request to this operation may register a user. */
export function registersUsers(e: Endpoint): boolean {
  if (e.graphql) return registersByGraphql(e);
  if (e.method !== 'POST' && e.method !== 'PUT') return false;
  if (NOT_REGISTRATION.test(e.path)) return false;
  const last = lastStaticSegment(e.path);
  const body = e.request_body?.schema ?? null;
  if (SIGNUP_WORD.test(last)) {
    if (takesPassword(body)) return true;
    // Joining a group or registering a device (/groups/{id}/join, /devices/register {token}) makes no account;
    // a sign-up without a password (a magic link to an e-mail) does, and so does one whose body is unknown.
    return !e.path.includes('{') && (!propsOf(body) || takesAccountName(body));
  }
  return e.method === 'POST' && !e.path.trim().endsWith('}') && ACCOUNTS_SEGMENT.test(last) && takesPassword(body);
}

/** Every scanned operation that registers users, the one the user named included. */
export function registrationOperations(endpoints: readonly Endpoint[], setting: SignupSetting): Endpoint[] {
  const named = typeof setting === 'object' ? findSignupOperation(endpoints, setting)?.endpoint : undefined;
  return endpoints.filter((e) => e === named || registersUsers(e));
}

export function registrationOperation(e: Endpoint): RegistrationOperation {
  return e.graphql
    ? { method: e.method, path: e.path, graphqlField: e.graphql.field, label: graphqlOperationName(e.graphql) }
    : { method: e.method, path: e.path, label: describeEndpoint(e) };
}

/** The request's fields, from a JSON, form or GraphQL body: top level, one wrapper object, or the GraphQL variables and string arguments. */
function sentFields(ex: Exchange): Record<string, string> {
  const raw = ex.request.body ?? '';
  const out: Record<string, string> = {};
  const take = (o: unknown) => {
    if (!o || typeof o !== 'object' || Array.isArray(o)) return;
    for (const [k, v] of Object.entries(o)) {
      if ((typeof v === 'string' || typeof v === 'number') && out[k] === undefined) out[k] = String(v);
      else if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k2, v2] of Object.entries(v)) if ((typeof v2 === 'string' || typeof v2 === 'number') && out[k2] === undefined) out[k2] = String(v2);
    }
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const gql = parsed as { query?: unknown; variables?: unknown };
    if (typeof gql.query === 'string') {
      take(gql.variables);
      for (const m of gql.query.matchAll(/(\w+)\s*:\s*"((?:[^"\\]|\\.)*)"/g)) out[m[1]!] ??= m[2]!;
    } else take(parsed);
  } else if (/^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*$/.test(raw)) {
    for (const [k, v] of new URLSearchParams(raw)) out[k] ??= v;
  }
  return out;
}

/**
 * The user a check's request registered, from what it sent: null when the answer says no user was
 * made (an error status, a 2xx saying it failed) or the request carried no password.
 */
export function registeredAccount(op: RegistrationOperation, ex: Exchange, purpose: string): CreatedAccount | null {
  if (!ex.response || !ex.ok || failedInBody(ex)) return null;
  const fields = sentFields(ex);
  const keys = Object.keys(fields);
  const passwordKey = keys.find(isPasswordKey);
  if (!passwordKey) return null;
  const userKey = keys.find((k) => USER_KEY.test(k) && !EMAIL_KEY.test(k));
  const emailKey = keys.find((k) => USER_KEY.test(k) && EMAIL_KEY.test(k));
  return {
    operation: op.label,
    username: userKey ? fields[userKey]! : null,
    email: emailKey ? fields[emailKey]! : null,
    password: fields[passwordKey]!,
    id: registeredId(ex),
    purpose,
  };
}
