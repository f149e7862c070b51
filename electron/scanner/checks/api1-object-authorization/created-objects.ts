// API1:2023 Broken Object Level Authorization on objects the scan creates: one user's object read,
// changed and deleted by the other (create then steal), and an object still readable after its DELETE.


import type { Endpoint } from '../../../../shared/contract';
import type { Exchange, KeyNumber } from '../../http/exchange';
import { mutate, pathParamNames, type PreparedRequest } from '../../requests';
import { listItems } from '../../resources';
import { compareBodies, distinctiveValues, isEmptyBody, isVolatileKey, sameData, valuesFoundIn } from '../../similarity';
import { defineCheck, describeEndpoint } from '../common/helpers';
import {
    asKey,
    createdBy,
    fitMarker,
    isObj,
    keyLabel,
    markerField,
    marksIn,
    newMarker,
    otherKey,
    privilegedKey,
    readAs,
    readerOf,
    requestLine,
    resourceObject,
    schemaShape,
} from '../common/objects';
import type { CheckContext } from '../types';
import { bolaFinding, cap, compareTriple, DELETE_CVSS, type Leak, READ_CVSS, REFS, REMEDIATION, WRITE_CVSS } from './id-swaps';
import { OWASP_API1 } from '../common/references';

// ---------------------------------------------------------------- API1.2 create then steal

function producedPath(ctx: CheckContext, e: Endpoint): boolean {
  const names = pathParamNames(e.path);
  return names.length > 0 && !!ctx.resources.producerFor(e);
}

/** A body for a write with a fresh marker in a free-text property; null when the body has none. */
function markedWrite(request: PreparedRequest, marker: string): { request: PreparedRequest; field: string; value: string } | null {
  const schema = request.endpoint?.request_body?.schema ?? null;
  const body = isObj(request.bodyValue) ? request.bodyValue : null;
  if (!body) return null;
  const field = markerField(schema, body);
  if (!field) return null;
  const value = fitMarker(marker, schemaShape(schema).props[field]);
  return { request: mutate(request, { bodyValue: { ...body, [field]: value } }), field, value };
}

/**
 * A listing (a GET without path parameters under the collection's path: /posts, /posts/recent) in
 * which `key` sees the object with its data (≥ 90 % of the values the owner reads): then other users
 * reading it is how the API is meant to work. A listing that shows the id but not the data (titles
 * listed, secrets only in the object) does not count.
 */
async function listedFor(ctx: CheckContext, ep: Endpoint, id: string, key: KeyNumber, ownerRead: Exchange): Promise<Endpoint | null> {
  const producer = ctx.resources.producerFor(ep);
  if (!producer || !id) return null;
  const prefix = producer.path.replace(/\/+$/, '');
  const lists = ctx.allEndpoints.filter((e) => e.method === 'GET' && pathParamNames(e.path).length === pathParamNames(producer.path).length && (e.path === prefix || e.path.startsWith(`${prefix}/`))).slice(0, 2);
  for (const list of lists) {
    if (ctx.budgetLeft() <= 0) break;
    const req = await ctx.prepare(list, key, 'read');
    if (!req) continue;
    const optional = Object.fromEntries(list.parameters.filter((p) => p.in === 'query' && !p.required).map((p) => [p.name, null]));
    const ex = await ctx.sendPrepared(mutate(req, { query: optional }), asKey(key));
    if (!ex.ok || !(ex.body.includes(`"${id}"`) || new RegExp(`[:\\[,]\\s*${id.replace(/[^\w-]/g, '')}\\s*[,}\\]]`).test(ex.body))) continue;
    // The listing's item for this object shows every property the owner reads (a post), not just some (a book's title, not its secret).
    const owned = resourceObject(ownerRead.json());
    const item = (listItems(ex.json()) ?? []).find((it) => isObj(it) && Object.values(it).some((v) => String(v) === id));
    if (owned && isObj(item)) {
      const missing = Object.keys(owned).filter((k) => !isVolatileKey(k) && owned[k] !== null && !(k in item));
      if (!missing.length) return list;
      continue;
    }
    const values = distinctiveValues(ownerRead.json() ?? ownerRead.body, 50);
    if (values.length && valuesFoundIn(values, ex.body).length >= 0.9 * values.length) return list;
  }
  return null;
}

export const bolaCreateSteal = defineCheck({
  id: 'api1-bola-create-steal',
  title: 'Another user can read, change or delete an object (create then steal)',
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  confidence: 'high',
  cvss: READ_CVSS,
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 8,
  needsKey2: true,
  techniques: ['API1.2'],
  description:
    'Where a POST creates what this endpoint addresses, one key creates the object (id from the response body or Location) and the other ' +
    'key reads, updates (with a unique marker in a text field) or deletes it; the owner then reads it again. Both directions. Finding: ' +
    'a read that returns 2xx with ≥ 90 % of the owner\'s values (the anonymous read refused); an update or delete answered 2xx whose effect ' +
    'the owner\'s re-read confirms (the marker is there; the object is gone with 404/410). Only objects the scan created are changed or deleted.',
  coverage:
    'Needs a second key, a POST that returns the new object\'s id (or is addressed by a key it sent), and for updates and deletes a GET on ' +
    'the same path to confirm the effect. A read is not reported when the attacker\'s own listing under the collection\'s path shows the ' +
    'object with all its properties (shared by design, like a public post); objects shared by design but listed nowhere are reported — review those.',
  remediation: REMEDIATION,
  references: REFS,
  appliesTo: (e) => e.flags.includes('BOLA') && ['GET', 'PUT', 'PATCH', 'DELETE'].includes(e.method) && pathParamNames(e.path).length > 0,
  async *run(ctx) {
    const ep = ctx.endpoint;
    if (!producedPath(ctx, ep)) return;
    const param = pathParamNames(ep.path).slice(-1)[0]!;
    const leaks: Leak[] = [];
    let kind: 'read' | 'update' | 'delete' = 'read';
    const privileged = await privilegedKey(ctx);
    for (const victim of [1, 2] as const) {
      const attacker = otherKey(victim);
      if (attacker === privileged) continue;
      if (ctx.budgetLeft() < 2) break;
      if (ep.method === 'GET') {
        const request = victim === 1 ? await ctx.baselineRequest(ep, 'key1') : await ctx.prepare(ep, 2, 'read');
        if (!request || !createdBy(ctx, request, victim)) continue;
        const victimRead = victim === 1 ? await ctx.baseline('key1') : await ctx.sendPrepared(request, asKey(2));
        const anon = await ctx.baseline('anonymous');
        const attack = victim === 1 ? await ctx.baseline('key2') : await ctx.sendPrepared(request, asKey(1));
        if (!victimRead || !attack || !(await compareTriple(ctx, victimRead, anon, attack))) continue;
        // Shared by design (a post everyone may read): the attacker's own listing of the collection already shows it.
        const listed = await listedFor(ctx, ep, request.pathValues[param]?.value ?? '', attacker, victimRead);
        if (listed) {
          ctx.note(`${describeEndpoint(ep)}: ${keyLabel(attacker)} can read ${keyLabel(victim)}'s object, but its own listing ${describeEndpoint(listed)} shows it too (shared by design); not reported.`);
          continue;
        }
        const sent = ctx.resources.created.find((o) => o.id === request.pathValues[param]?.value);
        const marks = sent ? distinctiveValues(sent.sent, 20).filter((v) => /[a-z]/i.test(v) && /\d/.test(v)) : [];
        const echoed = marksIn(marks, attack.body);
        leaks.push({
          victim,
          attacker,
          confidence: cap('high', ctx, attacker),
          proof: `${keyLabel(victim)} created it in this scan (${requestLine(sent?.exchange ?? victimRead)})${echoed.length ? `, and the answer carries the values sent then (${echoed.slice(0, 2).join(', ')})` : ''}`,
          attack,
          exchanges: [
            ...(sent ? [{ label: `${keyLabel(victim)} creates the object`, exchange: sent.exchange }] : []),
            { label: `Baseline: ${keyLabel(victim)} reads it`, exchange: victimRead },
            ...(anon ? [{ label: 'Baseline: the same read without credentials', exchange: anon }] : []),
            { label: `Attack: ${keyLabel(attacker)} reads ${keyLabel(victim)}'s object`, exchange: attack },
          ],
        });
        continue;
      }
      const reader = readerOf(ctx, ep);
      if (!reader) return;
      const prepared = await ctx.prepare(ep, victim, ep.method === 'DELETE' ? 'destroy' : 'write');
      if (!prepared || !createdBy(ctx, prepared, victim)) continue;
      const before = await readAs(ctx, reader, prepared.url, victim);
      if (!before.ok || isEmptyBody(before)) continue;
      const created = ctx.resources.created.find((o) => o.id === prepared.pathValues[param]?.value);
      if (ep.method === 'DELETE') {
        kind = 'delete';
        const attack = await ctx.sendPrepared(prepared, asKey(attacker));
        if (!attack.ok) continue;
        const after = await readAs(ctx, reader, prepared.url, victim);
        if (after.status !== 404 && after.status !== 410) continue;
        leaks.push({
          victim,
          attacker,
          confidence: cap('high', ctx, attacker),
          proof: `${keyLabel(victim)} created it in this scan, could read it before, and gets ${after.status} after ${keyLabel(attacker)}'s DELETE`,
          attack,
          exchanges: [
            ...(created ? [{ label: `${keyLabel(victim)} creates the object`, exchange: created.exchange }] : []),
            { label: `Baseline: ${keyLabel(victim)} reads it`, exchange: before },
            { label: `Attack: ${keyLabel(attacker)} deletes ${keyLabel(victim)}'s object`, exchange: attack },
            { label: `${keyLabel(victim)} reads it again`, exchange: after },
          ],
        });
        continue;
      }
      kind = 'update';
      const marked = markedWrite(prepared, newMarker('pclbola'));
      if (!marked || before.body.includes(marked.value)) continue;
      const attack = await ctx.sendPrepared(marked.request, asKey(attacker));
      if (!attack.ok) continue;
      const after = await readAs(ctx, reader, prepared.url, victim);
      if (!after.ok || !after.body.includes(marked.value)) continue;
      leaks.push({
        victim,
        attacker,
        confidence: cap('high', ctx, attacker),
        proof: `${keyLabel(victim)} created it in this scan, and its re-read shows ${marked.field} = "${marked.value}" written by ${keyLabel(attacker)}`,
        attack,
        exchanges: [
          ...(created ? [{ label: `${keyLabel(victim)} creates the object`, exchange: created.exchange }] : []),
          { label: `Baseline: ${keyLabel(victim)} reads it`, exchange: before },
          { label: `Attack: ${keyLabel(attacker)} writes to ${keyLabel(victim)}'s object`, exchange: attack },
          { label: `${keyLabel(victim)} reads it again`, exchange: after },
        ],
      });
    }
    if (!leaks.length) return;
    const draft = bolaFinding(ctx, leaks, param, kind === 'read' ? 'reading an object the other key created' : `${kind === 'update' ? 'updating' : 'deleting'} an object the other key created`);
    if (kind === 'read') {
      yield draft;
      return;
    }
    const best = leaks[0]!;
    yield {
      ...draft,
      name: kind === 'update' ? 'Another user can change an object (create then steal)' : 'Another user can delete an object (create then steal)',
      cvss: kind === 'update' ? WRITE_CVSS : DELETE_CVSS,
      description:
        `${describeEndpoint(ctx.endpoint)} let ${keyLabel(best.attacker)} ${kind} an object that ${keyLabel(best.victim)} created: ${best.proof}. ` +
        `${leaks.length > 1 ? 'It works in both directions. ' : ''}Any signed-in user can ${kind === 'update' ? 'overwrite' : 'delete'} other users' objects.`,
    };
  },
});

// ---------------------------------------------------------------- use after delete

const SOFT_DELETED = /^(deleted|removed|archived|trashed|inactive|disabled|cancel+ed|revoked)$/i;

/** The re-read says the object is deleted (a deleted flag, a deletedAt, a status). */
function marksDeleted(before: unknown, after: unknown): boolean {
  const a = resourceObject(after);
  const b = resourceObject(before);
  if (!a) return false;
  for (const [k, v] of Object.entries(a)) {
    if (b && JSON.stringify(b[k]) === JSON.stringify(v)) continue;
    if (/^(is_?)?(deleted|removed|archived|trashed)$/i.test(k) && v === true) return true;
    if (/^(deleted|removed|archived|trashed)_?(at|on)$/i.test(k) && v) return true;
    if (/^(status|state)$/i.test(k) && typeof v === 'string' && SOFT_DELETED.test(v)) return true;
  }
  return false;
}

export const useAfterDelete = defineCheck({
  id: 'api1-use-after-delete',
  title: 'Object still readable after it was deleted',
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-672',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:L/I:L/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 5,
  needsKey2: false,
  techniques: ['STATEFUL.1'],
  description:
    'On a DELETE of an object the scan created (a fresh one), with a GET on the same path: key 1 reads the object, deletes it, and reads it ' +
    'again. Finding: the DELETE answered 2xx and the re-read still answers 2xx with the same object (≥ 90 % of its values) and no sign of ' +
    'a soft delete (deleted flag, deletedAt, status "deleted"); high confidence when the collection\'s list no longer shows it (the API ' +
    'itself considers it gone).',
  coverage: 'Needs a POST that creates the object and a GET on the DELETE\'s path. Deletes that complete asynchronously may be reported; the evidence shows the timing.',
  remediation:
    'Make every read path honour the deletion: remove the row, or filter soft-deleted rows in the data-access layer that all handlers use ' +
    '(not only in the list query), and answer 404 (or 410) for a deleted object.',
  references: ['https://cwe.mitre.org/data/definitions/672.html', OWASP_API1, 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/10-Business_Logic_Testing/README'],
  appliesTo: (e) => e.method === 'DELETE' && e.flags.includes('BOLA') && pathParamNames(e.path).length > 0,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const reader = readerOf(ctx, ep);
    if (!reader) return;
    const prepared = await ctx.prepare(ep, 1, 'destroy');
    if (!prepared || !createdBy(ctx, prepared, 1)) return;
    const before = await readAs(ctx, reader, prepared.url, 1);
    if (!before.ok || isEmptyBody(before)) return;
    const del = await ctx.sendPrepared(prepared, asKey(1));
    // 202: accepted for later; the object may legitimately live on for a while.
    if (!del.ok || del.status === 202) return;
    const after = await readAs(ctx, reader, prepared.url, 1);
    if (!after.ok || isEmptyBody(after) || !sameData(after, before, 0.9) || marksDeleted(before.json(), after.json())) return;
    const param = pathParamNames(ep.path).slice(-1)[0]!;
    const id = prepared.pathValues[param]!.value;
    // The list: does the API itself consider the object gone?
    let list: Exchange | null = null;
    const listEp = ctx.resources.listFor(ep, param);
    if (listEp && ctx.budgetLeft() > 0) {
      const req = await ctx.prepare(listEp, 1, 'read');
      if (req) list = await ctx.sendPrepared(req, asKey(1), undefined);
    }
    const hidden = !!list?.ok && !list.body.includes(id);
    const created = ctx.resources.created.find((o) => o.id === id);
    yield {
      parameter: param,
      confidence: hidden ? 'high' : 'medium',
      description:
        `${describeEndpoint(ep)} answered ${del.status} for an object the scan created, but ${describeEndpoint(reader)} still returns it afterwards ` +
        `(HTTP ${after.status}, the same data as before)${hidden ? ', although the collection\'s list no longer shows it' : ''}. Deleted data stays ` +
        'readable by anyone who kept its id, and users are told it is gone when it is not.',
      notes: [`Similarity of the reads before and after the DELETE: ${JSON.stringify(compareBodies(after, before))}.`],
      exchanges: [
        ...(created ? [{ label: 'Key 1 creates the object', exchange: created.exchange }] : []),
        { label: 'Baseline: key 1 reads the object', exchange: before },
        { label: 'Key 1 deletes it', exchange: del },
        { label: 'Attack: key 1 reads it again', exchange: after },
        ...(list ? [{ label: 'Key 1 lists the collection', exchange: list }] : []),
      ],
      reproduce: after,
    };
  },
});
