// APIs repository: an API with its endpoints is written in one transaction; reads give the
// API list of spec section 3 (permission, owner name, scan status, vulnerabilities) per viewer.

import { sql, type Selectable } from 'kysely';
import type { ApiPermission } from '../../shared/constants';
import type { ApiSecurity, ApiSummary, Endpoint } from '../../shared/contract';
import type { Db } from './database';
import { lockName } from './dialect';
import { isPrepared, prepareEndpoint, type PreparedEndpoint } from './endpoint-row';
import type { ApisTable } from './schema';
import { NO_QUOTAS, quotaRefusal, textBytes, usageOf, type QuotaLimits } from './quotas';
import { newRowId } from './row-ids';
import { scheduleWhen } from './schedules';

export type ApiRow = Selectable<ApisTable>;

export type NewEndpoint = Omit<Endpoint, 'id'>;

export interface NewApi {
  ownerId: string;
  name: string;
  baseUrl: string;
  sourceFormat: string;
  sourceFilename: string | null;
  specVersion: string | null;
  security: ApiSecurity;
  /** As objects, or prepared by the import worker (their JSON written out). */
  endpoints: readonly (NewEndpoint | PreparedEndpoint)[];
}

/** Rows per multi-row insert; SQLite allows 32,766 bound values per statement. */
const INSERT_CHUNK = 500;
/** Flag rows have two values: ten times as many per statement (an import of 10,000 endpoints has ~55,000). */
const FLAG_CHUNK = 5_000;

/** Lets the event loop run other requests' callbacks between the chunks of a large write. */
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

type EndpointRow = ReturnType<typeof endpointRow>;

function endpointRow(apiId: string, position: number, endpoint: NewEndpoint | PreparedEndpoint, at: string) {
  const e = isPrepared(endpoint) ? endpoint : prepareEndpoint(endpoint);
  return {
    id: newRowId(),
    api_id: apiId,
    position,
    method: e.method.toUpperCase(),
    path: e.path,
    summary: e.summary,
    operation_id: e.operation_id,
    tags: e.tags,
    parameters: e.parameters,
    request_body: e.request_body,
    responses: e.responses,
    security: e.security,
    graphql: e.graphql,
    created_at: at,
  };
}

const SCAN_STATUS_WORDS: Record<string, string> = {
  running: 'Running',
  created: 'Ready',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function parseSecurity(json: string): ApiSecurity {
  try {
    const v = JSON.parse(json) as Partial<ApiSecurity>;
    return { schemes: v.schemes ?? {}, default: v.default ?? [] };
  } catch {
    return { schemes: {}, default: [] };
  }
}

export function createApisRepo(db: Db) {
  return {
    /**
     * Creates the API, its endpoints and their flags in one transaction; returns the API id. With
     * `limits`, the owner's usage is read and checked inside that transaction, before anything is
     * written, under a lock on the owner (`lockName`: on PostgreSQL other imports of the owner, from
     * any node, wait for this transaction; SQLite's one connection runs one transaction at a time), so
     * two parallel imports cannot both pass the same remaining quota. A refusal (QuotaExceededError)
     * writes nothing.
     */
    async createWithEndpoints(input: NewApi, now: Date, limits: QuotaLimits = NO_QUOTAS): Promise<string> {
      const id = newRowId();
      const at = now.toISOString();
      const api = {
        id,
        owner_id: input.ownerId,
        name: input.name,
        base_url: input.baseUrl,
        status: 'Active',
        source_format: input.sourceFormat,
        source_filename: input.sourceFilename,
        spec_version: input.specVersion,
        security_schemes: JSON.stringify(input.security),
        created_at: at,
        updated_at: at,
      };
      // Rows are built and written a chunk at a time, with the event loop let through between chunks:
      // 10,000 endpoints are ~8 MB of JSON and 0.5-1 s of work, which in one piece would hold every
      // other request of the server (issue 30, item 3).
      const rows: EndpointRow[] = [];
      let storedBytes = [api.name, api.base_url, api.source_filename, api.spec_version, api.security_schemes].reduce((n, v) => n + textBytes(v), 0);
      for (let start = 0; start < input.endpoints.length; start += INSERT_CHUNK) {
        if (start > 0) await yieldToLoop();
        for (const [offset, e] of input.endpoints.slice(start, start + INSERT_CHUNK).entries()) {
          const row = endpointRow(id, start + offset, e, at);
          storedBytes += [row.method, row.path, row.summary, row.operation_id, row.tags, row.parameters, row.request_body, row.responses, row.security, row.graphql].reduce(
            (m, v) => m + textBytes(v),
            0,
          );
          rows.push(row);
        }
      }
      const checked = limits.apis > 0 || limits.endpoints > 0 || limits.bytes > 0;
      await db.transaction().execute(async (trx) => {
        if (checked) {
          await lockName(trx, `quota:${input.ownerId}`);
          const refusal = quotaRefusal(limits, await usageOf(trx, input.ownerId), { apis: 1, endpoints: rows.length, bytes: storedBytes });
          if (refusal) throw refusal;
        }
        await trx
          .insertInto('apis')
          .values({ ...api, stored_bytes: storedBytes })
          .execute();
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
          if (i > 0) await yieldToLoop();
          await trx.insertInto('endpoints').values(rows.slice(i, i + INSERT_CHUNK)).execute();
        }
        const flags = rows.flatMap((r, i) => [...new Set(input.endpoints[i]!.flags)].map((flag) => ({ endpoint_id: r.id, flag })));
        for (let i = 0; i < flags.length; i += FLAG_CHUNK) {
          await yieldToLoop();
          await trx.insertInto('endpoint_flags').values(flags.slice(i, i + FLAG_CHUNK)).execute();
        }
      });
      return id;
    },

    async findById(id: string): Promise<ApiRow | undefined> {
      return db.selectFrom('apis').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The viewer's permission on an API, or undefined when the viewer cannot see it at all. */
    async access(userId: string, apiId: string): Promise<{ api: ApiRow; permission: ApiPermission } | undefined> {
      const api = await db.selectFrom('apis').selectAll().where('id', '=', apiId).executeTakeFirst();
      if (!api) return undefined;
      if (api.owner_id === userId) return { api, permission: 'owner' };
      const share = await db
        .selectFrom('shares')
        .select('permission')
        .where('api_id', '=', apiId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!share) return undefined;
      return { api, permission: share.permission === 'manage' ? 'manage' : 'read' };
    },

    /** Every API the user owns or has been shared, newest first, as the API list shows them. */
    async listVisible(userId: string): Promise<ApiSummary[]> {
      return this.summaries(userId, null);
    },

    async summary(userId: string, apiId: string): Promise<ApiSummary | undefined> {
      return (await this.summaries(userId, apiId))[0];
    },

    async summaries(userId: string, onlyApiId: string | null): Promise<ApiSummary[]> {
      let q = db
        .selectFrom('apis')
        .innerJoin('users as owner', 'owner.id', 'apis.owner_id')
        .leftJoin('shares', (j) => j.onRef('shares.api_id', '=', 'apis.id').on('shares.user_id', '=', userId))
        .leftJoin('schedules as sch', (j) => j.onRef('sch.api_id', '=', 'apis.id').on('sch.is_enabled', '=', 1))
        // The scan the card speaks of: a running one first, else the one that ended last. Found once and
        // joined, so its status and failure reason come from the same row (SQLite has no LATERAL).
        .leftJoin('scans as last', (j) =>
          j.on(
            sql<boolean>`last.id = (select s.id from scans s where s.api_id = apis.id and s.status in ('running','completed','failed','cancelled') order by (s.status = 'running') desc, coalesce(s.completed_at, s.started_at, s.created_at) desc limit 1)`,
          ),
        )
        .where((eb) => eb.or([eb('apis.owner_id', '=', userId), eb('shares.user_id', '=', userId)]))
        .select([
          'apis.id',
          'apis.name',
          'apis.base_url',
          'apis.created_at',
          'apis.status',
          'apis.source_format',
          'apis.owner_id',
          'owner.first_name',
          'owner.last_name',
          'owner.username',
          'shares.permission',
          'sch.frequency as sch_frequency',
          'sch.anchor_at as sch_anchor_at',
          'sch.created_at as sch_created_at',
          'sch.zone as sch_zone',
          'sch.next_run_at as sch_next_run_at',
          sql<number>`(select count(*) from endpoints e where e.api_id = apis.id)`.as('endpoint_count'),
          'last.status as last_status',
          'last.failure_reason as last_failure_reason',
          sql<string | null>`(select max(s.completed_at) from scans s where s.api_id = apis.id and s.status = 'completed')`.as(
            'last_completed',
          ),
          sql<number>`coalesce((select s.findings_count from scans s where s.api_id = apis.id and s.status = 'completed' order by s.completed_at desc limit 1), 0)`.as(
            'vulns',
                    ),
        ])
        .orderBy('apis.created_at', 'desc');
      if (onlyApiId) q = q.where('apis.id', '=', onlyApiId);
      const rows = await q.execute();
      return rows.map((r) => {
        const ownerName = [r.first_name, r.last_name].filter(Boolean).join(' ') || r.username;
        const permission: ApiPermission = r.owner_id === userId ? 'owner' : r.permission === 'manage' ? 'manage' : 'read';
        return {
          id: r.id,
          name: r.name,
          base_url: r.base_url,
          created_at: r.created_at,
          imported_on: r.created_at,
          permission,
          owner_name: ownerName,
          scanStatus: r.last_status ? (SCAN_STATUS_WORDS[r.last_status] ?? r.last_status) : 'Ready',
          lastScanned: r.last_completed ?? 'Never',
          vulnerabilitiesFound: Number(r.vulns),
          status: r.status,
          source_format: r.source_format,
          endpoint_count: Number(r.endpoint_count),
          lastFailureReason: r.last_status === 'failed' || r.last_status === 'cancelled' ? (r.last_failure_reason ?? null) : null,
          // Schedules are the owner's (their routes are owner-only): others are not told.
          schedule:
            permission === 'owner' && r.sch_frequency && r.sch_created_at && r.sch_zone
              ? { ...scheduleWhen({ frequency: r.sch_frequency, anchor_at: r.sch_anchor_at, created_at: r.sch_created_at, zone: r.sch_zone }), next_run_at: r.sch_next_run_at }
              : null,
        };
      });
    },

    async update(id: string, fields: { name?: string; baseUrl?: string }, now: Date): Promise<void> {
      await db
        .updateTable('apis')
        .set({
          ...(fields.name !== undefined ? { name: fields.name } : {}),
          ...(fields.baseUrl !== undefined ? { base_url: fields.baseUrl } : {}),
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .execute();
    },

    /** Deletes the API; its endpoints, flags, scans, findings, schedule and shares go with it (FK cascades). */
    async delete(id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('apis').where('id', '=', id).execute();
      });
    },
  };
}

export type ApisRepo = ReturnType<typeof createApisRepo>;

