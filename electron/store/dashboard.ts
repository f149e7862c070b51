// The dashboard overview: SQL aggregates over every API the user can see (owned and shared).
// "Open" vulnerabilities are the findings of each API's latest completed scan; "critical" is CVSS >= 9.0
// (CRITICAL_CVSS). A scan's vulnerabilities are `scans.findings_count` and `critical_count`, kept by the
// counting triggers of migrations 004 and 009 by the rule of shared/severity.ts (`countsAsVulnerability`:
// not informational, not set aside in triage). Days are UTC.

import { sql, type RawBuilder } from 'kysely';
import { CRITICAL_CVSS, type ScanStatus } from '../../shared/constants';
import type { DashboardOverview } from '../../shared/contract';
import type { Db } from './database';
import { dialectOf } from './dialect';
import { SEVERITY_LEVELS, type SeverityLevel } from '../../shared/severity';

const DAY_MS = 24 * 60 * 60 * 1000;
const STARTED = ['running', 'completed', 'failed', 'cancelled'];
const TOP_TYPES = 5;
const RECENT = 10;
/** The SQL rank of a level (0 critical ... 4 info) back to its name: SEVERITY_LEVELS' order. */
const WORST: readonly SeverityLevel[] = SEVERITY_LEVELS;

function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function createDashboardRepo(db: Db) {
  const d = dialectOf(db);
  return {
    async overview(userId: string, now: Date): Promise<DashboardOverview> {
      // The visible APIs, then the latest completed scan of each, as CTEs every figure builds on.
      const visible = sql`
        visible AS (
          SELECT id, name FROM apis WHERE owner_id = ${userId}
          UNION
          SELECT a.id, a.name FROM apis a JOIN shares s ON s.api_id = a.id WHERE s.user_id = ${userId}
        )`;
      // One index seek per visible API (scans_api_status_completed), not a sort of every scan.
      const latest = sql`
        latest AS (
          SELECT (SELECT sc.id FROM scans sc WHERE sc.api_id = v.id AND sc.status = 'completed'
                  ORDER BY sc.completed_at DESC LIMIT 1) AS id
          FROM visible v
        )`;
      const started = sql.join(STARTED.map((s) => sql`${s}`));
      // `visible CROSS JOIN scans WHERE …` below: SQLite keeps the left table of a CROSS JOIN as the outer
      // loop (one index seek per visible API); PostgreSQL plans it as any inner join. (CROSS JOIN … ON is SQLite only.)

      const totals = await sql<{ total_apis: number; total_scans: number; all_apis: number; total_vulns: number; critical: number }>`
        WITH ${visible}, ${latest},
        open AS (
          SELECT coalesce(sum(sc.findings_count), 0) AS total_vulns, coalesce(sum(sc.critical_count), 0) AS critical
          FROM latest l JOIN scans sc ON sc.id = l.id
        )
        SELECT
          (SELECT count(*) FROM visible) AS total_apis,
          (SELECT count(*) FROM visible v CROSS JOIN scans sc WHERE sc.api_id = v.id AND sc.status IN (${started})) AS total_scans,
          (SELECT count(*) FROM apis) AS all_apis,
          open.total_vulns, open.critical
        FROM open
      `.execute(db);

      const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 6 * DAY_MS);
      const sinceIso = since.toISOString();
      const t = totals.rows[0]!;
      const [scansPerDay, vulnsPerDay, top, recent] = await Promise.all([
        sql<{ day: string; n: number }>`
          WITH ${visible}
          SELECT substr(sc.created_at, 1, 10) AS day, count(*) AS n
          FROM scans sc
          WHERE sc.created_at >= ${sinceIso} AND sc.status IN (${started}) AND sc.api_id IN (SELECT id FROM visible)
          GROUP BY day`.execute(db),
        // Per day, for each API, the vulnerabilities of its last scan completed that day (issue 31): scanning
        // the same API five times a day shows its vulnerabilities once, not five times over.
        sql<{ day: string; n: number }>`
          WITH ${visible},
          day_scans AS (
            SELECT substr(sc.completed_at, 1, 10) AS day, sc.findings_count AS n,
              row_number() OVER (PARTITION BY sc.api_id, substr(sc.completed_at, 1, 10) ORDER BY sc.completed_at DESC, sc.seq DESC) AS nth
            FROM scans sc
            WHERE sc.status = 'completed' AND sc.completed_at >= ${sinceIso} AND sc.api_id IN (SELECT id FROM visible)
          )
          SELECT day, sum(n) AS n FROM day_scans WHERE nth = 1 GROUP BY day`.execute(db),
        // Ranked by the type's worst severity, then how often it occurs: one SQL injection outranks
        // five missing headers. Findings set aside in triage count for neither.
        sql<{ type: string; count: number; worst: number }>`
          WITH ${visible}, ${latest}
          SELECT f.vulnerability_name AS type, count(*) AS count,
            min(CASE WHEN f.cvss_score >= ${sql.lit(CRITICAL_CVSS)} THEN 0 WHEN f.severity = 'high' THEN 1 WHEN f.severity = 'medium' THEN 2 WHEN f.severity = 'low' THEN 3 ELSE 4 END) AS worst
          FROM findings f JOIN latest l ON l.id = f.scan_id
          WHERE f.severity <> 'info' AND f.suppressed = 0
          GROUP BY f.vulnerability_name
          ORDER BY worst ASC, count DESC, type ASC
          LIMIT ${TOP_TYPES}`.execute(db),
        this.recentScans(visible, started, Number(t.total_apis) * 10 >= Number(t.all_apis)),
      ]);

      const scanMap = new Map(scansPerDay.rows.map((r) => [r.day, Number(r.n)]));
      const vulnMap = new Map(vulnsPerDay.rows.map((r) => [r.day, Number(r.n)]));
      const scan_activity_weekly = Array.from({ length: 7 }, (_, i) => {
        const day = utcDay(new Date(since.getTime() + i * DAY_MS));
        return { day, scans: scanMap.get(day) ?? 0, vulnerabilities: vulnMap.get(day) ?? 0 };
      });
      return {
        total_apis: Number(t.total_apis),
        total_scans: Number(t.total_scans),
        total_vulnerabilities: Number(t.total_vulns),
        critical_vulnerabilities: Number(t.critical),
        scan_activity_weekly,
        top_vuln_types: top.rows.map((r) => {
          const level = WORST[Number(r.worst)] ?? 'info';
          return { type: r.type, count: Number(r.count), severity: level === 'critical' ? 'high' : level, level };
        }),
        recent_scans: recent.rows.map((r) => ({ ...r, vulnerabilities: Number(r.vulnerabilities) })),
      };
    },

    /**
     * The latest started scans. When the user sees a good share of the instance's APIs, walking
     * scans_created newest-first stops after a handful of rows; when they see few (a big team server),
     * sorting just their own scans is cheaper than walking everyone's.
     */
    recentScans(visible: RawBuilder<unknown>, started: RawBuilder<unknown>, walkAll: boolean) {
      type Row = { id: string; apiName: string; date: string; status: ScanStatus; vulnerabilities: number };
      const cols = sql`sc.id, (SELECT v.name FROM visible v WHERE v.id = sc.api_id) AS "apiName",
        coalesce(sc.completed_at, sc.started_at, sc.created_at) AS date, sc.status, sc.findings_count AS vulnerabilities`;
      return walkAll
        ? sql<Row>`
            WITH ${visible}
            SELECT ${cols} FROM scans sc
            WHERE ${sql.raw(d.noIndexHint('sc.status'))} IN (${started}) AND ${sql.raw(d.noIndexHint('sc.api_id'))} IN (SELECT id FROM visible)
            ORDER BY sc.created_at DESC, sc.seq DESC LIMIT ${RECENT}`.execute(db)
        : sql<Row>`
            WITH ${visible}
            SELECT ${cols} FROM visible vv CROSS JOIN scans sc
            WHERE sc.api_id = vv.id AND sc.status IN (${started})
            ORDER BY sc.created_at DESC, sc.seq DESC LIMIT ${RECENT}`.execute(db);
    },
  };
}

export type DashboardRepo = ReturnType<typeof createDashboardRepo>;
