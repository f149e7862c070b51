// Writes APIs, scans and findings straight into a store, for tests and benchmarks that need
// history without running scans. Goes through Kysely, so it works on any database behind the store;
// the columns the schema gives defaults are written out with those same defaults.

import { randomUUID } from 'node:crypto';
import type { Db } from '../../electron/store/database';

/** An `apis` row with the store's defaults: seedApi writes one, the dashboard bench writes thousands. */
export function apiRow(id: string, ownerId: string, name: string, createdAt: string) {
  return {
    id,
    owner_id: ownerId,
    name,
    base_url: 'https://api.example.com',
    status: 'Active',
    source_format: 'manual',
    source_filename: null,
    spec_version: null,
    security_schemes: '{}',
    created_at: createdAt,
    updated_at: createdAt,
  };
}

export async function seedApi(db: Db, ownerId: string, name: string, createdAt = '2026-01-01T00:00:00.000Z'): Promise<string> {
  const id = randomUUID();
  await db.insertInto('apis').values(apiRow(id, ownerId, name, createdAt)).execute();
  return id;
}

export interface SeedScan {
  status: string;
  created_at: string;
  started_at?: string | null;
  completed_at?: string | null;
  score?: number | null;
}

export async function seedScan(db: Db, apiId: string, userId: string, scan: SeedScan): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('scans')
    .values({
      id,
      api_id: apiId,
      user_id: userId,
      profile: 'OWASP_API_10',
      status: scan.status,
      created_at: scan.created_at,
      started_at: scan.started_at ?? scan.created_at,
      completed_at: scan.completed_at ?? null,
      failure_reason: null,
      progress_done: 0,
      progress_total: 0,
      requests_sent: 0,
      score: scan.score ?? null,
      config: '{}',
      secret_ref: null,
      notes: '{}',
    })
    .execute();
  return id;
}

export interface SeedFinding {
  name: string;
  cvss: number;
  severity?: string;
  method?: string;
  path?: string;
}

export async function seedFinding(db: Db, scanId: string, apiId: string, f: SeedFinding, createdAt = '2026-01-01T00:00:00.000Z'): Promise<string> {
  const id = randomUUID();
  const severity = f.severity ?? (f.cvss >= 7 ? 'high' : f.cvss >= 4 ? 'medium' : f.cvss > 0 ? 'low' : 'info');
  const method = f.method ?? 'GET';
  const path = f.path ?? '/x';
  await db
    .insertInto('findings')
    .values({
      id,
      scan_id: scanId,
      api_id: apiId,
      check_id: `check-${f.name}`,
      fingerprint: id,
      vulnerability_name: f.name,
      severity,
      confidence: 'high',
      owasp: 'API1:2023',
      cwe: null,
      description: 'd',
      recommendation: 'r',
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
      cvss_score: f.cvss,
      method,
      path,
      parameter: null,
      evidence: `Method: ${method}\nPath: ${path}`,
      curl: '',
      references: '[]',
      trend: 'new',
      created_at: createdAt,
    })
    .execute();
  return id;
}
