// The scan configuration as YAML (`portcullis scan --config scan.yaml`, and the Configure Scan
// dialog's export and import): parsed with source positions so every error names its line and
// field, `${env:NAME}` filled in only where the caller passes an environment (the CLI).

import { isMap, isScalar, isSeq, LineCounter, parseDocument, stringify, type Document } from 'yaml';
import {
  configSecretFields,
  ENV_REF,
  envReferences,
  issuesOf,
  scanConfigSchema,
  type ConfigIssue,
  type IdentityConfig,
  type ScanConfig,
  type ScanConfigInput,
} from './identities';

export const SCAN_CONFIG_MAX_BYTES = 256 * 1024;

export type ScanConfigParse = { ok: true; config: ScanConfig; envUsed: string[] } | { ok: false; issues: ConfigIssue[] };

export interface ParseOptions {
  /** Fills `${env:NAME}`; a missing variable is an error naming it. Without it references stay as text. */
  env?: (name: string) => string | undefined;
}

/** Where a field path points in the document (the deepest node that exists on the way). */
function positionOf(doc: Document, lines: LineCounter, path: (string | number)[]): { line: number; column: number } | undefined {
  for (let n = path.length; n >= 0; n -= 1) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    // For a missing or wrong key, the key's own position reads better than its value's.
    const parent = n > 0 ? doc.getIn(path.slice(0, n - 1), true) : null;
    if (isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(path[n - 1]));
      const key = pair?.key as { range?: [number, number, number] } | undefined;
      if (key?.range) {
        const pos = lines.linePos(key.range[0]);
        return { line: pos.line, column: pos.col };
      }
    }
    if (node?.range && (n === 0 || isMap(node) || isSeq(node) || isScalar(node))) {
      const pos = lines.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
  }
  return undefined;
}

function fillEnv(value: unknown, env: (name: string) => string | undefined, missing: Set<string>, used: Set<string>): unknown {
  if (typeof value === 'string') {
    return value.replace(ENV_REF, (_, name: string) => {
      const v = env(name);
      if (v === undefined) {
        missing.add(name);
        return '';
      }
      used.add(name);
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v) => fillEnv(v, env, missing, used));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fillEnv(v, env, missing, used);
    return out;
  }
  return value;
}

export function parseScanConfigYaml(source: string, opts: ParseOptions = {}): ScanConfigParse {
  if (source.length > SCAN_CONFIG_MAX_BYTES) return { ok: false, issues: [{ field: 'config', message: `The configuration is larger than ${SCAN_CONFIG_MAX_BYTES / 1024} KB.` }] };
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    // The first errors say it; the rest follow from them.
    const issues: ConfigIssue[] = doc.errors.slice(0, 3).map((e) => {
      const pos = lines.linePos(e.pos[0]);
      return { field: 'config', message: `YAML: ${e.message.split('\n')[0]}`, line: pos.line, column: pos.col };
    });
    const line = source.split('\n')[(issues[0]!.line ?? 1) - 1] ?? '';
    if (/\{[^}]*[:,]\s*\$\{env:/.test(line)) {
      issues.unshift({ ...issues[0]!, message: 'Quote ${env:...} inside { } (a flow mapping): password: "${env:NAME}".' });
    }
    return { ok: false, issues };
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 50 });
  } catch (err) {
    return { ok: false, issues: [{ field: 'config', message: `YAML: ${(err as Error).message}` }] };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, issues: [{ field: 'config', message: 'The configuration must be a mapping with an identities list.', line: 1, column: 1 }] };

  const used = new Set<string>();
  if (opts.env) {
    const missing = new Set<string>();
    raw = fillEnv(raw, opts.env, missing, used);
    if (missing.size) {
      const names = [...missing];
      return {
        ok: false,
        issues: names.map((n) => {
          const where = findEnvReference(doc, n);
          return { field: where?.field ?? 'config', message: `The environment variable ${n} is not set.`, ...(where?.pos ?? {}) };
        }),
      };
    }
  }
  const result = scanConfigSchema.safeParse(raw);
  if (!result.success) {
    const issues = issuesOf(result.error).map((issue, n) => {
      const raw = result.error.issues[n]!;
      const path = raw.path.filter((p): p is string | number => typeof p !== 'symbol');
      // An unknown key is best shown at the key itself, not at its parent.
      if (raw.code === 'unrecognized_keys' && raw.keys.length) path.push(raw.keys[0]!);
      const pos = positionOf(doc, lines, path);
      return pos ? { ...issue, ...pos } : issue;
    });
    return { ok: false, issues };
  }
  return { ok: true, config: result.data, envUsed: [...used] };

  function findEnvReference(d: Document, name: string): { field: string; pos?: { line: number; column: number } } | null {
    let found: { field: string; pos?: { line: number; column: number } } | null = null;
    const visit = (node: unknown, path: (string | number)[]) => {
      if (found) return;
      if (isScalar(node) && typeof node.value === 'string' && node.value.includes(`\${env:${name}}`)) {
        const r = (node as { range?: [number, number, number] }).range;
        const p = r ? lines.linePos(r[0]) : undefined;
        found = { field: path.join('.'), ...(p ? { pos: { line: p.line, column: p.col } } : {}) };
      } else if (isMap(node)) for (const pair of node.items) visit(pair.value, [...path, isScalar(pair.key) ? String(pair.key.value) : '?']);
      else if (isSeq(node)) node.items.forEach((item, i) => visit(item, [...path, i]));
    };
    visit(d.contents, []);
    return found;
  }
}

/** "identities.0.login.token.pointer, line 7: ..." lines for a terminal or an alert. */
export function formatConfigIssues(issues: ConfigIssue[], file = 'scan config'): string[] {
  return issues.map((i) => `${file}${i.line ? `:${i.line}${i.column ? `:${i.column}` : ''}` : ''}: ${i.field}: ${i.message}`);
}

/**
 * The variable that holds one secret of an identity (`PORTCULLIS_ALICE_PASSWORD`): the exported YAML
 * reads it, and curl commands use the same name, so one set of variables serves both.
 */
export function envName(identity: string, field: string): string {
  const id = identity.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'IDENTITY';
  return `PORTCULLIS_${id}_${field.toUpperCase()}`;
}

/** Replaces every secret of an identity by a `${env:NAME}` reference named after its field; records the names used. */
function withEnvSecrets(i: IdentityConfig, names: string[]): IdentityConfig {
  const secrets = configSecretFields(i);
  if (!secrets.length) return i;
  const byValue = new Map<string, string>();
  for (const s of secrets) {
    const base = envName(i.name, s.field.replace(/[^A-Za-z0-9]+/g, '_'));
    let name = base;
    for (let n = 2; names.includes(name); n += 1) name = `${base}_${n}`;
    names.push(name);
    byValue.set(s.value, name);
  }
  const swap = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const name = byValue.get(v.trim());
      return name ? `\${env:${name}}` : v;
    }
    if (Array.isArray(v)) return v.map(swap);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]));
    return v;
  };
  return swap(i) as IdentityConfig;
}

/**
 * The configuration as YAML. With `secrets: 'env'` (the default) every secret becomes a
 * `${env:NAME}` reference, listed in a comment, so the file can live in git.
 */
export function toScanConfigYaml(config: ScanConfigInput | ScanConfig, opts: { secrets?: 'env' | 'include' } = {}): string {
  const names: string[] = [];
  const identities = (config.identities as IdentityConfig[]).map((i) => (opts.secrets === 'include' ? i : withEnvSecrets(i, names)));
  const body = stringify(
    {
      identities: identities.map(stripDefaults),
      ...(config.signup !== undefined ? { signup: config.signup } : {}),
      ...(config.writes !== undefined ? { writes: config.writes } : {}),
      ...(config.destructive?.length ? { destructive: config.destructive } : {}),
      ...(config.seed !== undefined ? { seed: config.seed } : {}),
    },
    { lineWidth: 0 },
  );
  const header = ['# Portcullis scan configuration: portcullis scan --config <this file> (docs/scan-config.md)'];
  if (names.length) header.push('# Secrets are read from the environment:', ...names.map((n) => `#   ${n}`));
  return `${header.join('\n')}\n${body}`;
}

function stripDefaults(i: IdentityConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { ...i };
  if (out.role === 'user') delete out.role;
  return out;
}

export { envReferences };
