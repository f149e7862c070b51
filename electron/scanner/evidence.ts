// Evidence text and curl reproductions of findings. Evidence starts with "Method:" and "Path:"
// lines, then each exchange that proves the finding (request line, headers, body excerpts). Keys
// never appear: evidence shows "[key 1]", curl commands read them from shell variables
// ($PORTCULLIS_KEY_1), so the command still reproduces the finding with the user's own key.

import type { Exchange } from './http/exchange';
import { authLabel } from './http/exchange';
import type { Redactor } from './redact';

export interface LabelledExchange {
  label: string;
  exchange: Exchange;
}

export const BODY_EXCERPT = 1200;
const MAX_RESPONSE_HEADERS = 25;
/** Transport headers that prove nothing. */
const NOISE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export function excerpt(text: string, max = BODY_EXCERPT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

function requestTarget(url: string): { target: string; host: string } {
  const u = new URL(url);
  return { target: `${u.pathname}${u.search}`, host: u.host };
}

export function renderExchange(x: LabelledExchange): string {
  const { exchange: ex } = x;
  const { target, host } = requestTarget(ex.request.url);
  const lines = [`== ${x.label} (${authLabel(ex.request.auth)}) ==`, `> ${ex.request.method} ${target}`, `> host: ${host}`];
  for (const [k, v] of Object.entries(ex.request.headers)) if (k !== 'user-agent') lines.push(`> ${k}: ${v}`);
  if (ex.request.body) lines.push('>', ...excerpt(ex.request.body, 600).split('\n').map((l) => `> ${l}`));
  for (const r of ex.redirects) lines.push(`(redirect ${r.status} -> ${r.to})`);
  if (!ex.response) {
    lines.push(`< no response: ${ex.error ?? 'unknown error'} (${Math.round(ex.durationMs)} ms)`);
    return lines.join('\n');
  }
  lines.push(`< HTTP ${ex.response.status} (${Math.round(ex.durationMs)} ms)`);
  const headers = Object.entries(ex.response.headers)
    .filter(([k]) => !NOISE_HEADERS.has(k))
    .slice(0, MAX_RESPONSE_HEADERS);
  for (const [k, v] of headers) lines.push(`< ${k}: ${v.split('\n').join(' | ')}`);
  if (ex.blockedRedirect) lines.push(`(off-host redirect not followed: ${ex.blockedRedirect})`);
  const body = ex.response.body;
  if (body) lines.push('<', ...excerpt(body).split('\n').map((l) => `< ${l}`));
  return lines.join('\n');
}

export interface EvidenceInput {
  method: string;
  path: string;
  parameter?: string | null;
  /** One-line statements of what the exchanges show, before them. */
  notes?: string[];
  exchanges: LabelledExchange[];
}

/** The evidence text, keys redacted. */
export function renderEvidence(input: EvidenceInput, redactor: Redactor): string {
  const head = [`Method: ${input.method}`, `Path: ${input.path}`];
  if (input.parameter) head.push(`Parameter: ${input.parameter}`);
  const parts = [head.join('\n')];
  if (input.notes?.length) parts.push(input.notes.join('\n'));
  for (const x of input.exchanges) parts.push(renderExchange(x));
  return redactor.redact(parts.join('\n\n'));
}

/** Shell-quotes a string, putting keys back as "$VARIABLE" references. */
export function shellQuote(text: string, redactor: Redactor): string {
  const SEP = '\u0000';
  const marked = redactor.replace(text, (s) => `${SEP}${s.envVar}${SEP}`);
  const parts = marked.split(SEP);
  const out = parts
    .map((p, i) => (i % 2 === 1 ? `"$${p}"` : p ? `'${p.replace(/'/g, `'\\''`)}'` : ''))
    .join('');
  return out || "''";
}

/** A curl command that sends the same request. */
export function curlFor(ex: Exchange, redactor: Redactor): string {
  const args = ['curl', '-i', '-X', ex.request.method];
  const url = ex.request.url;
  for (const [k, v] of Object.entries(ex.request.headers)) {
    if (k === 'user-agent' || k === 'accept') continue;
    // Basic credentials built from a key read better (and stay correct) as -u.
    const basic = /^basic\s+(.+)$/i.exec(v);
    if (k === 'authorization' && basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const secret = redactor.secrets.find((s) => s.value === decoded || s.value === v);
      if (secret) {
        args.push('-u', `"$${secret.envVar}"`);
        continue;
      }
    }
    args.push('-H', shellQuote(`${k}: ${v}`, redactor));
  }
  if (ex.request.body) args.push('--data-raw', shellQuote(ex.request.body, redactor));
  args.push(shellQuote(url, redactor));
  const command = args.join(' ');
  // Nothing of a key may survive, in any encoding.
  return redactor.leaks(command) ? redactor.redact(command) : command;
}
