// API5:2023 Broken Function Level Authorization: a route whose name says it wipes or re-creates
// the API's data (GET /reset, /createdb, /seed, /purge...) that anyone can call without credentials.
// What it does is irreversible for every user, so it is sent once, after every other check, and
// only with the user's consent (writes to existing objects allowed and the route named): a loopback
// target is someone's development data too (probe-safety.ts).

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import type { PreparedRequest } from '../../requests';
import { consented, destructiveRead, wipeOperation } from '../../probe-safety';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { looksLikeError } from '../common/objects';
import { OWASP_API5 } from '../common/references';
import type { CheckContext } from '../types';

const RESET_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:H';
/** What a reset route says it did. */
const RESET_WORDS = /\b(reset|re-?created?|created|populated|seeded|re-?seeded|initiali[sz]ed|dropped|deleted|purged|flushed|wiped|truncated|cleared|database|db)\b/i;

/** An object key 1 created in this scan and the request that reads it (to see whether the reset wiped it). */
async function createdObjectRead(ctx: CheckContext): Promise<PreparedRequest | null> {
  for (const obj of ctx.resources.created.filter((o) => o.key === 1 && o.exchange.ok)) {
    const reader = ctx.resources.consumersOf(obj.producer).find((e: Endpoint) => e.method === 'GET' && /\}$/.test(e.path) && !destructiveRead(e));
    if (!reader) continue;
    const request = await ctx.prepare(reader, 1, 'read');
    if (request && Object.values(request.pathValues).some((v) => v.source === 'created' && v.value === obj.id)) return request;
  }
  return null;
}

export const unauthenticatedReset = defineCheck({
  id: 'api5-unauthenticated-reset',
  title: 'Anyone can wipe or re-create the API\'s data (unauthenticated reset route)',
  flag: 'BFLA',
  owasp: 'API5:2023',
  cwe: 'CWE-306',
  confidence: 'high',
  cvss: RESET_CVSS,
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  destructive: true,
  budget: 3,
  techniques: ['API5.1'],
  description:
    'Routes whose name says they reset, drop, purge, seed or (re)create the database (/reset, /createdb, /init, /seed, /drop, /purge, ' +
    '/flush, /bulk-delete... in the path or the operation id), and DELETEs of a whole collection. Baselines and other checks never send ' +
    'them. With the user\'s consent only, this check sends one request without ' +
    'credentials, after every other check has finished: finding when it answers 2xx (not an error), high confidence when an object key 1 ' +
    'created earlier in the scan is gone afterwards (read just before and just after) or the answer says what it did (database populated, reset).',
  coverage:
    'The request is sent only when the scan may write to existing ' +
    'objects and the user named the route under `destructive:` (a loopback API is no exception: it is someone\'s data too); otherwise a route ' +
    'the spec documents without security is reported from the spec alone at low confidence, without sending it. When sent, the reset ' +
    'happens: the target\'s data is re-created as the route does.',
  remediation:
    'Remove database reset, seed and creation routes from deployed builds (run them as deployment or test-fixture commands), or put them behind ' +
    'an administrator\'s authentication and an explicit confirmation, and never expose them as a GET (crawlers, prefetchers and link previews ' +
    'call GETs).',
  references: [OWASP_API5, 'https://cwe.mitre.org/data/definitions/306.html', 'https://owasp.org/www-community/vulnerabilities/Missing_Authentication_for_Critical_Function'],
  appliesTo: (e) => !e.graphql && (destructiveRead(e) || wipeOperation(e) !== null) && !/\{/.test(e.path) && (e.flags.includes('BFLA') || e.flags.includes('SEC_MISC')),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const spec = ctx.authSpec();
    const documented = spec.declaredSecured ? `documented as requiring credentials (${spec.schemes.join(', ') || 'security requirement'})` : 'documented without any security requirement';
    if (!consented(ep, ctx.options)) {
      ctx.holdBack("routes whose name says they wipe or re-create the API's data are never called without your consent");
      if (spec.declaredSecured) return;
      yield {
        confidence: 'low',
        // Not sent, so not proven: whether it really wipes data is a condition the scan could not see (AC:H), medium.
        cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:H',
        description:
          `${describeEndpoint(ep)} is ${documented}, and its name says it wipes or re-creates the API's data. It was not called: that would ` +
          'destroy the data of every user. If it does what its name says, anyone on the network can reset the API.',
        notes: ['Not sent: the scan calls a data-wiping route only when you allow writes to existing objects and name the route under `destructive:`.'],
        exchanges: [],
      };
      return;
    }
    const readRequest = await createdObjectRead(ctx);
    const before = readRequest && ctx.budgetLeft() > 1 ? await ctx.sendPrepared(readRequest, { kind: 'key', key: 1 }) : null;
    const attack = await ctx.send({ method: ep.method, url: ctx.url(ep.path).href, auth: { kind: 'none' } });
    if (!attack.ok || looksLikeError(attack)) return;
    let after: Exchange | null = null;
    if (readRequest && before?.ok && ctx.budgetLeft() > 0) after = await ctx.sendPrepared(readRequest, { kind: 'key', key: 1 });
    const wiped = !!after && (after.status === 404 || after.status === 410);
    const said = RESET_WORDS.exec(attack.body.slice(0, 2000))?.[0] ?? null;
    const proofs = [
      `a request without credentials answered ${attack.status}`,
      ...(wiped ? [`the object key 1 created earlier (${new URL(before!.request.url).pathname}) read ${before!.status} just before and ${after!.status} just after`] : []),
      ...(said ? [`the answer says what it did ("${said}")`] : []),
    ];
    yield {
      confidence: proofs.length >= 2 ? 'high' : 'medium',
      description:
        `${describeEndpoint(ep)} is ${documented} and wipes or re-creates the API's data when called without credentials: ${proofs.join('; ')}. ` +
        'Anyone on the network can destroy every user\'s data (and the accounts with it) with one request; a crawler or link preview following ' +
        'the URL does the same.',
      notes: [
        'Sent once, after every other check of the scan, without credentials.',
        ...(wiped ? ['Key 1\'s object was readable just before the call and gone right after it.'] : []),
      ],
      exchanges: [
        ...(before ? [{ label: 'Before: key 1 reads an object it created', exchange: before }] : []),
        { label: 'Attack: the route without credentials', exchange: attack },
        ...(after ? [{ label: 'After: key 1 reads the same object', exchange: after }] : []),
      ],
      reproduce: attack,
    };
  },
});
