// Writes APIs, scans and findings straight into a store, for tests and benchmarks that need
// history without running scans.

import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';

export function seedApi(sqlite: SQLite.Database, ownerId: string, name: string, createdAt = '2026-01-01T00:00:00.000Z'): string {
  const id = randomUUID();
  sqlite
    .prepare('INSERT INTO apis (id, owner_id, name, base_url, source_format, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(id, ownerId, name, 'https://api.example.com', 'manual', createdAt, createdAt);
  return id;
}

export interface SeedScan {
  status: string;
  created_at: string;
  started_at?: string | null;
  completed_at?: string | null;
  score?: number | null;
}

export function seedScan(sqlite: SQLite.Database, apiId: string, userId: string, scan: SeedScan): string {
  const id = randomUUID();
  sqlite
    .prepare(
      'INSERT INTO scans (id, api_id, user_id, profile, status, created_at, started_at, completed_at, score) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(id, apiId, userId, 'OWASP_API_10', scan.status, scan.created_at, scan.started_at ?? scan.created_at, scan.completed_at ?? null, scan.score ?? null);
  return id;
}

export interface SeedFinding {
  name: string;
  cvss: number;
  severity?: string;
  method?: string;
  path?: string;
}

export function seedFinding(sqlite: SQLite.Database, scanId: string, apiId: string, f: SeedFinding, createdAt = '2026-01-01T00:00:00.000Z'): string {
  const id = randomUUID();
  const severity = f.severity ?? (f.cvss >= 7 ? 'high' : f.cvss >= 4 ? 'medium' : f.cvss > 0 ? 'low' : 'info');
  sqlite
    .prepare(
      `INSERT INTO findings (id, scan_id, api_id, check_id, fingerprint, vulnerability_name, severity, confidence, owasp, description,
         recommendation, cvss_vector, cvss_score, method, path, evidence, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'high', 'API1:2023', 'd', 'r', 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N', ?, ?, ?, ?, ?)`,
    )
    .run(id, scanId, apiId, `check-${f.name}`, id, f.name, severity, f.cvss, f.method ?? 'GET', f.path ?? '/x', `Method: ${f.method ?? 'GET'}\nPath: ${f.path ?? '/x'}`, createdAt);
  return id;
}
