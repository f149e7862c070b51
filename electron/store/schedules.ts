// Schedules repository: one recurring scan per API, its next run and how the last one went.

import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import type { ScheduleFrequency } from '../../shared/constants';
import type { Schedule } from '../../shared/contract';
import type { Db } from './database';
import type { Selectable } from 'kysely';
import type { SchedulesTable } from './schema';

export type ScheduleRow = Selectable<SchedulesTable>;

/** When a schedule runs: the anchor's wall-clock time (and weekday or day) in the schedule's zone. */
export function scheduleWhen(
  row: Pick<ScheduleRow, 'frequency' | 'anchor_at' | 'created_at' | 'zone'>,
): Pick<Schedule, 'frequency' | 'time_of_day' | 'time_zone' | 'weekday' | 'day_of_month'> {
  const frequency = row.frequency as ScheduleFrequency;
  const anchor = DateTime.fromISO(row.anchor_at ?? row.created_at, { zone: row.zone });
  const local = anchor.isValid ? anchor : DateTime.fromISO(row.anchor_at ?? row.created_at, { zone: 'UTC' });
  return {
    frequency,
    time_of_day: local.toFormat('HH:mm'),
    time_zone: row.zone,
    weekday: frequency === 'weekly' ? local.weekday : null,
    day_of_month: frequency === 'monthly' ? local.day : null,
  };
}

export function toSchedule(row: ScheduleRow): Schedule & { last_error: string | null; last_scan_id: string | null } {
  return {
    api_id: row.api_id,
    ...scheduleWhen(row),
    is_enabled: row.is_enabled === 1,
    next_run_at: row.next_run_at,
    last_run_at: row.last_run_at,
    last_error: row.last_error,
    last_scan_id: row.last_scan_id,
  };
}

export interface SaveSchedule {
  apiId: string;
  userId: string;
  frequency: ScheduleFrequency;
  enabled: boolean;
  anchorAt: Date;
  zone: string;
  nextRunAt: Date | null;
}

export function createSchedulesRepo(db: Db) {
  return {
    async get(apiId: string): Promise<ScheduleRow | undefined> {
      return db.selectFrom('schedules').selectAll().where('api_id', '=', apiId).executeTakeFirst();
    },

    async save(input: SaveSchedule, now: Date): Promise<ScheduleRow> {
      const at = now.toISOString();
      const values = {
        user_id: input.userId,
        frequency: input.frequency,
        is_enabled: input.enabled ? 1 : 0,
        next_run_at: input.nextRunAt?.toISOString() ?? null,
        anchor_at: input.anchorAt.toISOString(),
        zone: input.zone,
        last_error: null,
        updated_at: at,
      };
      await db
        .insertInto('schedules')
        .values({ id: randomUUID(), api_id: input.apiId, created_at: at, last_run_at: null, last_scan_id: null, ...values })
        .onConflict((oc) => oc.column('api_id').doUpdateSet(values))
        .execute();
      return (await this.get(input.apiId))!;
    },

    /** True when there was a schedule to delete. */
    async delete(apiId: string): Promise<boolean> {
      const res = await db.deleteFrom('schedules').where('api_id', '=', apiId).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    /** Enabled schedules whose next run is at or before `now`, oldest due first. */
    async due(now: Date): Promise<ScheduleRow[]> {
      return db
        .selectFrom('schedules')
        .selectAll()
        .where('is_enabled', '=', 1)
        .where('next_run_at', '<=', now.toISOString())
        .orderBy('next_run_at')
        .execute();
    },

    /** The soonest next run of any enabled schedule. */
    async nextWake(): Promise<Date | null> {
      const row = await db
        .selectFrom('schedules')
        .select((eb) => eb.fn.min<string>('next_run_at').as('at'))
        .where('is_enabled', '=', 1)
        .executeTakeFirst();
      return row?.at ? new Date(row.at) : null;
    },

    /**
     * Takes a due run for this node: moves the schedule's next run from `seen` (as read by `due`) to
     * `next`, unless another node (or a change of the schedule) moved it first. True for the one caller
     * that moved it, which alone starts the run. A compare-and-set: on PostgreSQL the second of two
     * concurrent updates waits for the first and re-checks the condition against its result.
     */
    async claim(apiId: string, seen: string, next: Date): Promise<boolean> {
      const res = await db
        .updateTable('schedules')
        .set({ next_run_at: next.toISOString() })
        .where('api_id', '=', apiId)
        .where('is_enabled', '=', 1)
        .where('next_run_at', '=', seen)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async recordRun(apiId: string, run: { at: Date; next: Date; scanId: string | null; error: string | null }): Promise<void> {
      await db
        .updateTable('schedules')
        .set({
          last_run_at: run.at.toISOString(),
          next_run_at: run.next.toISOString(),
          last_scan_id: run.scanId,
          last_error: run.error,
          updated_at: run.at.toISOString(),
        })
        .where('api_id', '=', apiId)
        .execute();
    },
  };
}

export type SchedulesRepo = ReturnType<typeof createSchedulesRepo>;
