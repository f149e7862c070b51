// API1:2023 Broken Object Level Authorization in updates that name the object in their body
// (PATCH /comments {id, text}) rather than in the path: one user creates an object through the
// collection's create (PUT or POST on /posts/{postId}/comments), the scan learns its id from the
// answer or, where the answer names none, from the collection's listing by the unique text it sent;
// the other user sends the update with that id and a marker, and the owner's listing shows the marker.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange, KeyNumber } from '../../http/exchange';
import { idFromListing } from '../../created-from-listing';
import { mutate, pathParamNames, type PreparedRequest } from '../../requests';
import { createdId, endpointsAtTemplate, idIn, listItems, normalizeTemplate } from '../../resources';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { asKey, fitMarker, isObj, keyLabel, markerField, newMarker, otherKey, privilegedKey, readAs, requestLine, schemaShape, schemaType } from '../common/objects';
import { OWASP_API1 } from '../common/references';
import type { CheckContext } from '../types';
import { cap, REFS, REMEDIATION, WRITE_CVSS } from './id-swaps';

/** The body field that names the object itself (id, _id, uuid): not a parent's or another resource's id. */
const OBJECT_ID = /^(id|_id|uuid|guid)$/i;

function objectIdField(e: Endpoint): string | null {
  return Object.keys(schemaShape(e.request_body?.schema ?? null).props).find((n) => OBJECT_ID.test(n)) ?? null;
}

/** The template without its parameter segments: /posts/{}/comments -> /posts/comments. */
const flattened = (path: string) => normalizeTemplate(path).split('/').filter((s) => s && s !== '{}').join('/');

/** Creates of the same collection: POST or PUT whose path, without its parameters, is the update's path; with a GET on their own path. */
function siblingCreates(ctx: CheckContext, update: Endpoint): { create: Endpoint; list: Endpoint }[] {
  const target = flattened(update.path);
  const out: { create: Endpoint; list: Endpoint }[] = [];
  for (const e of ctx.allEndpoints) {
    if (e === update || !['POST', 'PUT'].includes(e.method) || flattened(e.path) !== target || pathParamNames(e.path).length === 0) continue;
    if (!markerField(e.request_body?.schema ?? null, null)) continue;
    const list = endpointsAtTemplate(ctx.allEndpoints, e.path).find((x) => x.method === 'GET');
    if (list) out.push({ create: e, list });
  }
  return out.slice(0, 2);
}

function typedId(update: Endpoint, field: string, id: string): unknown {
  const t = schemaType(schemaShape(update.request_body?.schema ?? null).props[field]);
  return (t === 'integer' || t === 'number') && /^\d+$/.test(id) ? Number(id) : id;
}

/** The listing entry with this id, and the value of a field in it. */
function entryValue(listing: Exchange, id: string, field: string, collection: string | null): unknown {
  const item = (listItems(listing.json()) ?? []).find((it) => idIn(it, null, collection) === id);
  return isObj(item) ? item[field] : undefined;
}

interface Created {
  id: string;
  request: PreparedRequest;
  answer: Exchange;
  listing: Exchange | null;
  field: string;
}

/** The victim's new object of the collection, with its id from the answer or from its listing. */
async function createAs(ctx: CheckContext, create: Endpoint, list: Endpoint, victim: KeyNumber, collection: string | null): Promise<Created | null> {
  const base = await ctx.prepare(create, victim, 'write');
  if (!base || !isObj(base.bodyValue)) return null;
  const field = markerField(create.request_body?.schema ?? null, base.bodyValue);
  if (!field) return null;
  const value = fitMarker(newMarker('pclown'), schemaShape(create.request_body?.schema ?? null).props[field]);
  const request = mutate(base, { bodyValue: { ...base.bodyValue, [field]: value } });
  const answer = await ctx.sendPrepared(request, asKey(victim));
  if (!answer.ok) return null;
  const named = createdId(answer, null, collection)?.id ?? null;
  if (named) return { id: named, request, answer, listing: null, field };
  if (ctx.budgetLeft() < 3) return null;
  const listing = await readAs(ctx, list, request.url, victim);
  const id = listing.ok ? idFromListing(listing.json(), [value], collection) : null;
  return id ? { id, request, answer, listing, field } : null;
}

export const bolaBodyIdUpdate = defineCheck({
  id: 'api1-bola-body-id-update',
  title: 'Another user\'s object changed through an id in the body',
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  confidence: 'high',
  cvss: WRITE_CVSS,
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 8,
  needsKey2: true,
  techniques: ['API1.2'],
  description:
    'For updates (PUT, PATCH) without path parameters whose body names the object by its own id (id, _id, uuid) beside a text field, where ' +
    'a create of the same collection exists (POST or PUT on the same path with the parent\'s id in it: /posts/{postId}/comments for ' +
    'PATCH /posts/comments) with a GET on its path: one user creates an object with a unique text, and its id is taken from the create\'s ' +
    'answer or, where the answer names none ({"status": "success"}), from the listing read as the same user (the one entry holding the text ' +
    'it sent); the object is recorded as that user\'s in the ownership ledger. The other user then sends the update with that id and a ' +
    'marker in the text field. Finding: the update answers 2xx and the owner\'s listing shows the marker in its object. Both directions.',
  coverage:
    'Needs a second key, a create of the collection and a listing on its path that shows the text field. A create under an existing parent ' +
    '(a review of an existing product) is a write to an existing object: sent only with `writes: existing` unless the scan created the parent. ' +
    'Updates that name the object by a field other than id, _id or uuid, and collections without a listing, are not tried.',
  remediation: `${REMEDIATION} An update that takes the object's id in its body must load the object through the caller's identity like one that takes it in the path.`,
  references: [OWASP_API1, ...REFS.slice(1)],
  appliesTo: (e) => ['PUT', 'PATCH'].includes(e.method) && pathParamNames(e.path).length === 0 && !!objectIdField(e) && !!markerField(e.request_body?.schema ?? null, null),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const idField = objectIdField(ep)!;
    const privileged = await privilegedKey(ctx);
    const siblings = siblingCreates(ctx, ep);
    if (!siblings.length) return;
    // The lower-privileged key attacks first: its success cannot be an administrator's right.
    for (const attacker of [2, 1] as const) {
      const victim = otherKey(attacker);
      if (attacker === privileged) continue;
      for (const { create, list } of siblings) {
        if (ctx.budgetLeft() < 6) return;
        const collection = flattened(create.path).split('/').pop() ?? null;
        const own = await createAs(ctx, create, list, victim, collection);
        if (!own) continue;
        ctx.resources.recordCreated({ id: own.id, key: victim, producer: create, exchange: own.answer, location: null, parents: own.request.pathValues, sent: own.request.bodyValue });
        const base = await ctx.prepare(ep, attacker, 'write');
        if (!base || !isObj(base.bodyValue)) continue;
        const field = markerField(ep.request_body?.schema ?? null, base.bodyValue);
        if (!field) continue;
        const marker = fitMarker(newMarker('pclbola'), schemaShape(ep.request_body?.schema ?? null).props[field]);
        const attack = await ctx.sendPrepared(mutate(base, { bodyValue: { ...base.bodyValue, [idField]: typedId(ep, idField, own.id), [field]: marker } }), asKey(attacker));
        if (!attack.ok) continue;
        const after = await readAs(ctx, list, own.request.url, victim);
        if (!after.ok || entryValue(after, own.id, field, collection) !== marker) continue;
        const how = own.listing ? `its id (${own.id}) read from ${keyLabel(victim)}'s listing ${describeEndpoint(list)}, the one entry holding the text it sent` : `its id (${own.id}) named by the create's answer`;
        yield {
          parameter: idField,
          confidence: cap('high', ctx, attacker),
          description:
            `${describeEndpoint(ep)} let ${keyLabel(attacker)} change an object that ${keyLabel(victim)} created with ${describeEndpoint(create)} (${how}): ` +
            `${keyLabel(attacker)} sent ${idField} = ${own.id} with ${field} = "${marker}", and ${keyLabel(victim)}'s listing now shows that ${field} in its object. ` +
            'Any signed-in user can overwrite other users\' objects by naming them in the body.',
          notes: [`Ownership: ${keyLabel(victim)} created the object in this scan (${requestLine(own.answer)}).`, `Identities: ${ctx.identities.how}.`],
          exchanges: [
            { label: `${keyLabel(victim)} creates the object`, exchange: own.answer },
            ...(own.listing ? [{ label: `${keyLabel(victim)} lists the collection: the entry with the text it sent has id ${own.id}`, exchange: own.listing }] : []),
            { label: `Attack: ${keyLabel(attacker)} updates ${keyLabel(victim)}'s object by its id in the body`, exchange: attack },
            { label: `${keyLabel(victim)} lists the collection again`, exchange: after },
          ],
          reproduce: attack,
        };
        return;
      }
    }
  },
});
