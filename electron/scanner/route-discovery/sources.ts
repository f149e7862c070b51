// Where a server names its own routes outside its spec: robots.txt rules and sitemaps, links and scripts
// of its HTML pages and directory listings, URLs in its JSON answers (plain values, HAL `_links`, JSON:API
// `links`) and Location headers. Each reader returns same-origin paths only, bounded.

const MAX_PER_SOURCE = 100;

/** The path of `ref` when it points at `origin` (absolute, root-relative, or relative to `base`); null otherwise. */
export function sameOriginPath(ref: string, origin: string, base: string = `${origin}/`): string | null {
  const s = ref.trim();
  if (!s || s.length > 500 || /^(data|javascript|mailto|tel|blob):/i.test(s) || s.startsWith('#')) return null;
  let u: URL;
  try {
    u = new URL(s, base);
  } catch {
    return null;
  }
  if (u.origin !== origin) return null;
  return `${u.pathname}${u.search}`;
}

/** Disallow/Allow rules and Sitemap lines of robots.txt: paths with wildcards cut at the first one. */
export function robotsPaths(text: string, origin: string): { paths: string[]; sitemaps: string[] } {
  const paths = new Set<string>();
  const sitemaps = new Set<string>();
  for (const line of text.slice(0, 100_000).split(/\r?\n/)) {
    const m = /^\s*(allow|disallow|sitemap)\s*:\s*(\S+)/i.exec(line.replace(/#.*/, ''));
    if (!m) continue;
    if (m[1]!.toLowerCase() === 'sitemap') {
      const p = sameOriginPath(m[2]!, origin);
      if (p) sitemaps.add(p);
      continue;
    }
    const rule = m[2]!.split(/[*$]/, 1)[0]!;
    if (rule.length > 1 && rule.startsWith('/')) paths.add(rule);
    if (paths.size >= MAX_PER_SOURCE) break;
  }
  return { paths: [...paths], sitemaps: [...sitemaps].slice(0, 3) };
}

/** The <loc> entries of a sitemap (or sitemap index) that are on the origin. */
export function sitemapPaths(xml: string, origin: string): string[] {
  const out = new Set<string>();
  for (const m of xml.slice(0, 500_000).matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)) {
    const p = sameOriginPath(m[1]!.replace(/&amp;/g, '&'), origin);
    if (p) out.add(p);
    if (out.size >= MAX_PER_SOURCE) break;
  }
  return [...out];
}

/** The href/src/action targets of an HTML page on the origin, scripts apart (relative ones resolved against `pageUrl`). */
export function htmlLinks(html: string, origin: string, pageUrl: string): { links: string[]; scripts: string[] } {
  const links = new Set<string>();
  const scripts = new Set<string>();
  const text = html.slice(0, 1_000_000);
  for (const m of text.matchAll(/<script\b[^>]*\bsrc\s*=\s*["']?([^"'\s>]+)/gi)) {
    const p = sameOriginPath(m[1]!.replace(/&amp;/g, '&'), origin, pageUrl);
    if (p) scripts.add(p);
  }
  for (const m of text.matchAll(/<(a|form|link|iframe)\b[^>]*\b(href|action|src)\s*=\s*["']?([^"'\s>]+)/gi)) {
    if (m[1]!.toLowerCase() === 'link' && !/rel\s*=\s*["']?(alternate|service-desc|describedby)/i.test(m[0])) continue;
    const p = sameOriginPath(m[3]!.replace(/&amp;/g, '&'), origin, pageUrl);
    if (p) links.add(p);
    if (links.size >= MAX_PER_SOURCE) break;
  }
  return { links: [...links], scripts: [...scripts].slice(0, 10) };
}

const URLISH_KEY = /^(href|url|uri|link|links|self|next|prev|previous|first|last|related|location|_links)$/i;

/**
 * Same-origin paths in a JSON answer: any string value that is a URL on the origin or a root-relative path
 * ("/api/orders/7"), HAL `_links.*.href` and JSON:API `links` included; bounded in depth and count.
 */
export function jsonLinks(value: unknown, origin: string): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, key: string, depth: number) => {
    if (out.size >= MAX_PER_SOURCE || depth > 8) return;
    if (typeof v === 'string') {
      const s = v.trim();
      const absolute = /^https?:\/\//i.test(s);
      const rooted = s.startsWith('/') && !s.startsWith('//');
      // A bare root-relative string is a path only in a link-like field or when it has two segments (not "/", not a date).
      if (!absolute && !(rooted && (URLISH_KEY.test(key) || /^\/[A-Za-z][\w.-]*\/[\w.{}-]/.test(s)))) return;
      const p = sameOriginPath(s, origin);
      if (p && p !== '/') out.add(p);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v.slice(0, 50)) walk(x, key, depth + 1);
      return;
    }
    if (v && typeof v === 'object') for (const [k, x] of Object.entries(v as Record<string, unknown>).slice(0, 200)) walk(x, k, depth + 1);
  };
  walk(value, '', 0);
  return [...out];
}
