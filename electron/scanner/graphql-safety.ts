// What a scan may send to a GraphQL operation (issue 20, the design's safety rule). Every operation is
// POST /graphql, so the REST rule (no path id the scan did not create) cannot see which mutations write
// to existing objects: their arguments say it. Queries are reads; a mutation may be sent when it
// addresses no existing object (a create, a login, a code check), or when the scan allows writes to
// existing objects, and never when its name says it deletes or resets unless the user named it (and
// allowed writes to existing objects); subscriptions never (they do not answer over a plain POST).

import type { Endpoint, JsonSchema } from '../../shared/contract';
import { graphqlOperationName } from '../../shared/display';

/**
 * Mutations that destroy or reset what they address. A reset of a password, PIN or code with a code
 * check (resetPassword(email, code, newPassword)) is a login-like operation, not a wipe.
 */
const DESTRUCTIVE_MUTATION =
  /^(delete|remove|drop|reset(?!(my)?_?(password|passwd|pwd|pin|code|otp|token))|wipe|purge|destroy|truncate|clear|erase|revoke|deactivate|disable|ban|unlink|detach)/i;
/**
 * An argument that addresses an existing object: of GraphQL type ID, or named like an id ("id",
 * "pasteId", "user_ids"). Natural keys such as a username are what creates and logins send, not an
 * address, so they do not count (unlike default-flags' wider id-like list).
 */
const ID_NAME = /(^|[_\-.])(id|ids|uuid|guid|pk)$|[a-z0-9](Id|ID|Ids|IDs|Uuid|UUID|Guid|GUID)$/;

const namedTypeOf = (typeRef: string) => typeRef.replace(/[[\]!\s]/g, '');

function graphqlTypeOf(schema: JsonSchema | null | undefined): string {
  const t = schema?.['x-graphql-type'];
  return typeof t === 'string' ? t : '';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Whether an argument (or a field of an input-object argument) of the operation addresses an existing object. */
export function addressesObject(endpoint: Endpoint): boolean {
  const op = endpoint.graphql;
  if (!op) return false;
  for (const param of endpoint.parameters) {
    if (param.in !== 'argument') continue;
    const typeRef = op.variable_types[param.name] ?? graphqlTypeOf(param.schema);
    if (namedTypeOf(typeRef) === 'ID' || ID_NAME.test(param.name)) return true;
    const props = isRecord(param.schema?.properties) ? (param.schema!.properties as Record<string, JsonSchema>) : {};
    for (const [field, sub] of Object.entries(props)) {
      if (namedTypeOf(graphqlTypeOf(sub)) === 'ID' || ID_NAME.test(field)) return true;
    }
  }
  return false;
}

/** Whether the operation's name says it deletes or resets (deletePaste, resetDatabase). */
export function destructiveMutation(endpoint: Endpoint): boolean {
  return endpoint.graphql?.kind === 'mutation' && DESTRUCTIVE_MUTATION.test(endpoint.graphql.field);
}

/**
 * Why the scan may not send this GraphQL operation at all, or null when it may (queries, and mutations
 * within the rule above). Not GraphQL: null.
 */
export function graphqlSendBlocked(endpoint: Endpoint, allowExistingObjects: boolean, named = false): string | null {
  const op = endpoint.graphql;
  if (!op || op.kind === 'query') return null;
  const name = graphqlOperationName(op);
  if (op.kind === 'subscription') return `${name} is a subscription (it does not answer over a plain POST)`;
  // An operation the user named, in a scan that may write to existing objects, is the user's consent (probe-safety.ts).
  if (named) return null;
  if (destructiveMutation(endpoint)) return `${name}'s name says it deletes or resets data (never sent without your consent: set \`writes: existing\` and name ${name} under \`destructive:\`)`;
  if (!allowExistingObjects && addressesObject(endpoint)) return `${name} takes an id of an existing object the scan did not create (allow writes to existing objects to send it)`;
  return null;
}
