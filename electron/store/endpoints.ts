// Endpoints repository: an API's endpoints with their flags, and flag changes.

import type { Flag } from '../../shared/constants';
import type { Endpoint } from '../../shared/contract';
import type { Db } from './database';
import type { EndpointsTable } from './schema';

function parse<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

export function toEndpoint(row: EndpointsTable, flags: Flag[]): Endpoint {
  return {
    id: row.id,
    method: row.method,
    path: row.path,
    summary: row.summary,
    flags,
    operation_id: row.operation_id,
    tags: parse(row.tags, []),
    parameters: parse(row.parameters, []),
    request_body: parse(row.request_body, null),
    responses: parse(row.responses, {}),
    security: parse(row.security, null),
    graphql: row.graphql ? parse(row.graphql, null) : null,
  };
}

export function createEndpointsRepo(db: Db) {
  async function flagsOf(endpointIds: string[] | { apiId: string }): Promise<Map<string, Flag[]>> {
    let q = db.selectFrom('endpoint_flags').select(['endpoint_id', 'flag']);
    q = Array.isArray(endpointIds)
      ? q.where('endpoint_id', 'in', endpointIds.length ? endpointIds : [''])
      : q.where('endpoint_id', 'in', db.selectFrom('endpoints').select('id').where('api_id', '=', endpointIds.apiId));
    const map = new Map<string, Flag[]>();
    for (const r of await q.execute()) {
      const list = map.get(r.endpoint_id) ?? [];
      list.push(r.flag as Flag);
      map.set(r.endpoint_id, list);
    }
    return map;
  }

  return {
    /** The API's endpoints in import order, with their flags. */
    async listForApi(apiId: string): Promise<Endpoint[]> {
      const rows = await db.selectFrom('endpoints').selectAll().where('api_id', '=', apiId).orderBy('position').execute();
      const flags = await flagsOf({ apiId });
      return rows.map((r) => toEndpoint(r, flags.get(r.id) ?? []));
    },

    /** One endpoint, only if it belongs to the given API (ids from the client are never trusted alone). */
    async findInApi(apiId: string, endpointId: string): Promise<Endpoint | undefined> {
      const row = await db
        .selectFrom('endpoints')
        .selectAll()
        .where('id', '=', endpointId)
        .where('api_id', '=', apiId)
        .executeTakeFirst();
      if (!row) return undefined;
      return toEndpoint(row, (await flagsOf([row.id])).get(row.id) ?? []);
    },

    /** Idempotent. */
    async addFlag(endpointId: string, flag: Flag): Promise<void> {
      await db
        .insertInto('endpoint_flags')
        .values({ endpoint_id: endpointId, flag })
        .onConflict((oc) => oc.columns(['endpoint_id', 'flag']).doNothing())
        .execute();
    },

    /** Idempotent. */
    async removeFlag(endpointId: string, flag: Flag): Promise<void> {
      await db.deleteFrom('endpoint_flags').where('endpoint_id', '=', endpointId).where('flag', '=', flag).execute();
    },

    /**
     * Switches one flag on or off for every endpoint of the API, or for the listed ones (all of which
     * must belong to it), in one transaction. Returns how many endpoints changed; null when an id is
     * not one of the API's endpoints (nothing is written then).
     */
    async setFlagForMany(apiId: string, flag: Flag, on: boolean, endpointIds: readonly string[] | null): Promise<number | null> {
      return db.transaction().execute(async (trx) => {
        let ids: string[];
        if (endpointIds === null) {
          ids = (await trx.selectFrom('endpoints').select('id').where('api_id', '=', apiId).execute()).map((r) => r.id);
        } else {
          const wanted = [...new Set(endpointIds)];
          ids = [];
          // SQLite binds at most 32,766 variables: look the ids up in slices.
          for (let i = 0; i < wanted.length; i += 5000) {
            const slice = wanted.slice(i, i + 5000);
            const found = await trx.selectFrom('endpoints').select('id').where('api_id', '=', apiId).where('id', 'in', slice).execute();
            ids.push(...found.map((r) => r.id));
          }
          if (ids.length !== wanted.length) return null;
        }
        let changed = 0;
        for (let i = 0; i < ids.length; i += 5000) {
          const slice = ids.slice(i, i + 5000);
          const res = on
            ? await trx
                .insertInto('endpoint_flags')
                .values(slice.map((id) => ({ endpoint_id: id, flag })))
                .onConflict((oc) => oc.columns(['endpoint_id', 'flag']).doNothing())
                .executeTakeFirst()
            : await trx.deleteFrom('endpoint_flags').where('flag', '=', flag).where('endpoint_id', 'in', slice).executeTakeFirst();
          changed += Number('numInsertedOrUpdatedRows' in res ? (res.numInsertedOrUpdatedRows ?? 0) : (res as { numDeletedRows: bigint }).numDeletedRows);
        }
        return changed;
      });
    },

    async countForApi(apiId: string): Promise<number> {
      const r = await db
        .selectFrom('endpoints')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('api_id', '=', apiId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}

export type EndpointsRepo = ReturnType<typeof createEndpointsRepo>;
