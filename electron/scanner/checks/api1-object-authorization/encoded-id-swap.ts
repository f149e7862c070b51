// API1:2023 Broken Object Level Authorization through encoded ids: an id that is base64 or hex of a
// number or a short key (MTAwMQ== is "1001") is decoded, its neighbours and the other user's key are
// encoded the same way, and the caller asks for them. Encoding hides nothing: guessing is as easy
// as with plain numbers.

import type { Exchange } from '../../http/exchange';
import { isEmptyBody } from '../../similarity';
import { decodeId, describeEncoding, encodedNeighbours, type EncodedCandidate, type EncodedId } from '../common/encoded-ids';
import { defineCheck, describeEndpoint } from '../common/helpers';
import {
  asKey,
  identityMarks,
  keyLabel,
  looksLikeError,
  marksIn,
  otherKey,
  ownedIds,
  privilegedKey,
  type IdParam,
} from '../common/objects';
import { ledgers, ownerProof, userRefValue, type OwnershipLedger } from '../common/ownership';
import { OWASP_API1 } from '../common/references';
import type { CheckContext } from '../types';
import { bolaFinding, cap, compareTriple, objectParam, READ_CVSS, readsObject, REFS, REMEDIATION, valueIn, withValue, type Leak } from './id-swaps';

/** Whose object an answer is: the victim's by its listing, or by its identity in the body (and not the attacker's). */
function victimProof(
  ctx: CheckContext,
  c: EncodedCandidate,
  attack: Exchange,
  who: { victim: 1 | 2; attacker: 1 | 2; victimIds: string[] | null; attackerIds: string[] | null; ledgers: [OwnershipLedger, OwnershipLedger] },
): string[] {
  const proofs: string[] = [];
  if (who.victimIds?.includes(c.value) && !who.attackerIds?.includes(c.value)) proofs.push(`${c.value} is in ${keyLabel(who.victim)}'s own listing and not ${keyLabel(who.attacker)}'s`);
  const owner = ownerProof(ctx, attack.json(), who.ledgers[who.victim - 1]!, who.ledgers[who.attacker - 1]!);
  if (owner) proofs.push(`the answer is ${keyLabel(who.victim)}'s object: ${owner}`);
  const leaked = marksIn(identityMarks(ctx, who.victim), attack.body);
  if (leaked.length && !marksIn(identityMarks(ctx, who.attacker), attack.body).length) proofs.push(`the answer carries ${keyLabel(who.victim)}'s identity (${leaked.slice(0, 3).join(', ')})`);
  return proofs;
}

/** The id each key's own request carries for the parameter, decoded; null when it is not an encoded id. */
async function ownEncodedId(ctx: CheckContext, key: 1 | 2, param: IdParam) {
  const request = key === 1 ? await ctx.baselineRequest(ctx.endpoint, 'key1') : await ctx.prepare(ctx.endpoint, 2, 'read');
  const raw = request ? valueIn(request, param) : null;
  const id = raw ? decodeId(raw) : null;
  return request && id ? { request, id } : null;
}

function candidatesFor(ctx: CheckContext, id: EncodedId, attacker: 1 | 2, paramName: string): EncodedCandidate[] {
  const own = userRefValue(ctx, attacker, paramName)?.value;
  const other = userRefValue(ctx, otherKey(attacker), paramName)?.value;
  return [{ value: id.raw, plain: id.plain, how: 'the value of the caller\'s own request' }, ...encodedNeighbours(id, { own, other })];
}

export const bolaEncodedIdSwap = defineCheck({
  id: 'api1-bola-encoded-id-swap',
  title: 'Another user\'s object reached by changing an encoded id',
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  confidence: 'medium',
  cvss: READ_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 12,
  needsKey2: true,
  techniques: ['API1.3'],
  description:
    'For reads whose object id (path, query or body) is base64, url-safe base64 or hex of a number or a short key (it decodes to printable ' +
    'text such as "1001" or "user:42" and encodes back to exactly itself): each key decodes the id of its own request, puts the other user\'s ' +
    'key from /me in place of its own where the id carries it, takes the next and previous number, encodes each the same way and asks for it. ' +
    'Finding: an answer 2xx with the other user\'s object — in their own listing and not the caller\'s, with an owner-named field holding their ' +
    'id from the ownership ledger (`user: 2`), or carrying their identity from /me and not the caller\'s — that the other user reads ' +
    'identically with their own key, while the request without credentials is refused.',
  coverage:
    'Needs a second key, and ownership shown by a listing, an owner id the scan learnt or the owner\'s identity in the answer: an object of a third user, or one that names ' +
    'nobody, is not reported. Ids that are hex of digits only ("31303031") are read as plain numbers; encrypted or signed ids cannot be changed.',
  remediation: `${REMEDIATION} Encoding an id (base64, hex) is not a protection: decode, change, encode is one line for an attacker.`,
  references: [OWASP_API1, ...REFS.slice(1)],
  appliesTo: (e) => e.flags.includes('BOLA') && readsObject(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const param = objectParam(ep);
    if (!param) return;
    const privileged = await privilegedKey(ctx);
    const both = await ledgers(ctx);
    const leaks: Leak[] = [];
    let encodingName = '';
    for (const attacker of [1, 2] as const) {
      const victim = otherKey(attacker) as 1 | 2;
      if (attacker === privileged) continue;
      const own = await ownEncodedId(ctx, attacker, param);
      if (!own) continue;
      const victimIds = await ownedIds(ctx, param, ep, victim);
      const attackerIds = await ownedIds(ctx, param, ep, attacker);
      for (const c of candidatesFor(ctx, own.id, attacker, param.name)) {
        if (ctx.budgetLeft() < 3) break;
        if (attackerIds?.includes(c.value)) continue;
        const request = withValue(ctx, own.request, param, c.value);
        const attack = await ctx.sendPrepared(request, asKey(attacker));
        if (!attack.ok || isEmptyBody(attack) || looksLikeError(attack)) continue;
        const proofs = victimProof(ctx, c, attack, { victim, attacker, victimIds, attackerIds, ledgers: both });
        if (!proofs.length) continue;
        const victimRead = await ctx.sendPrepared(request, asKey(victim));
        const anon = await ctx.sendPrepared(request, { kind: 'none' });
        if (!(await compareTriple(ctx, victimRead, anon, attack))) continue;
        encodingName ||= own.id.encoding === 'base64url' ? 'url-safe base64' : own.id.encoding;
        const decoding = `${param.name}=${own.id.raw} is ${describeEncoding(own.id)}; ${c.value} is ${describeEncoding({ encoding: own.id.encoding, plain: c.plain })} (${c.how})`;
        leaks.push({
          victim,
          attacker,
          confidence: cap('high', ctx, attacker),
          proof: [decoding, ...proofs, `${keyLabel(victim)} reads the same object with its own key`].join('; '),
          attack,
          exchanges: [
            { label: `Baseline: ${keyLabel(victim)} reads the object (${c.plain})`, exchange: victimRead },
            { label: 'Baseline: the same request without credentials', exchange: anon },
            { label: `Attack: ${keyLabel(attacker)} asks for ${describeEncoding({ encoding: own.id.encoding, plain: c.plain })}`, exchange: attack },
          ],
        });
        break;
      }
    }
    if (!leaks.length) return;
    const finding = bolaFinding(ctx, leaks, param.name, `decoding the ${encodingName} id of its own request, changing it and encoding it again`);
    yield { ...finding, description: `${finding.description} Encoding the id (${encodingName}) hides nothing: ${describeEndpoint(ep)} must check ownership.` };
  },
});
