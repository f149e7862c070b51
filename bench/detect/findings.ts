// One findings list for a target scanned in several parts (Juice Shop's shop API and its B2B API):
// each part's operation paths are relative to its base URL, so they get the base path back; what a
// part found outside its base (a discovered /metrics, a login route) keeps the path it was found at.
// The same finding reported by two parts is kept once.

export interface ScanFinding {
  check_id: string;
  vulnerability_name: string;
  severity: string;
  method: string;
  path: string;
  owasp?: string;
  curl?: string;
  graphql?: { operation?: string } | null;
  [key: string]: unknown;
}

/** The last quoted http(s) URL of a finding's curl command: where its evidence request went. */
export function curlUrl(curl: string | undefined): URL | null {
  if (!curl) return null;
  const urls = [...curl.matchAll(/'(https?:\/\/[^'\s]+)'/g)];
  const last = urls.at(-1)?.[1];
  if (!last) return null;
  try {
    return new URL(last);
  } catch {
    return null;
  }
}

const under = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

/** The finding's path on the target's origin, for a scan whose API sits at `basePath`. */
export function originPath(f: Pick<ScanFinding, 'path' | 'curl'>, basePath: string): string {
  if (!basePath || under(f.path, basePath)) return f.path;
  const url = curlUrl(f.curl);
  // A request that went outside the base was made at the path the finding names.
  if (url && !under(url.pathname, basePath)) return f.path;
  return `${basePath}${f.path.startsWith('/') ? '' : '/'}${f.path}`;
}

/** Every part's findings on the origin's paths, each distinct finding once. */
export function mergeFindings(parts: { basePath: string; findings: ScanFinding[] }[]): ScanFinding[] {
  const seen = new Set<string>();
  const out: ScanFinding[] = [];
  for (const part of parts) {
    for (const f of part.findings) {
      const p = originPath(f, part.basePath);
      const key = [f.check_id, f.method, p, f.vulnerability_name, f.graphql?.operation ?? ''].join('\u0000');
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...f, path: p });
    }
  }
  return out;
}
