// CVSS 3.1 base scores computed from vectors (FIRST's specification, section 7 and appendix A),
// so a finding's score always matches the vector it stores.

const WEIGHTS = {
  AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
  AC: { L: 0.77, H: 0.44 },
  UI: { N: 0.85, R: 0.62 },
  CIA: { H: 0.56, L: 0.22, N: 0 },
} as const;

const PREFIX = 'CVSS:3.1/';
const METRICS = ['AV', 'AC', 'PR', 'UI', 'S', 'C', 'I', 'A'] as const;
type Metric = (typeof METRICS)[number];
const ALLOWED: Record<Metric, string[]> = {
  AV: ['N', 'A', 'L', 'P'],
  AC: ['L', 'H'],
  PR: ['N', 'L', 'H'],
  UI: ['N', 'R'],
  S: ['U', 'C'],
  C: ['H', 'L', 'N'],
  I: ['H', 'L', 'N'],
  A: ['H', 'L', 'N'],
};

export type CvssMetrics = Record<Metric, string>;

/** Parses "CVSS:3.1/AV:N/AC:L/..." into its eight base metrics; throws on anything malformed. */
export function parseCvssVector(vector: string): CvssMetrics {
  if (!vector.startsWith(PREFIX)) throw new Error(`Not a CVSS 3.1 vector: ${vector}`);
  const out: Partial<CvssMetrics> = {};
  for (const part of vector.slice(PREFIX.length).split('/')) {
    const [k, v] = part.split(':');
    if (!k || !v || !(METRICS as readonly string[]).includes(k)) throw new Error(`Bad CVSS metric "${part}" in ${vector}`);
    if (out[k as Metric] !== undefined) throw new Error(`Repeated CVSS metric ${k} in ${vector}`);
    if (!ALLOWED[k as Metric].includes(v)) throw new Error(`Bad CVSS value ${k}:${v} in ${vector}`);
    out[k as Metric] = v;
  }
  for (const m of METRICS) if (out[m] === undefined) throw new Error(`Missing CVSS metric ${m} in ${vector}`);
  return out as CvssMetrics;
}

/** Round up to one decimal as the specification defines it (avoids floating-point surprises). */
function roundUp(x: number): number {
  const i = Math.round(x * 100000);
  return i % 10000 === 0 ? i / 100000 : (Math.floor(i / 10000) + 1) / 10;
}

export function cvssScore(vector: string): number {
  const m = parseCvssVector(vector);
  const changed = m.S === 'C';
  const pr = m.PR === 'N' ? 0.85 : m.PR === 'L' ? (changed ? 0.68 : 0.62) : changed ? 0.5 : 0.27;
  const c = WEIGHTS.CIA[m.C as 'H'];
  const i = WEIGHTS.CIA[m.I as 'H'];
  const a = WEIGHTS.CIA[m.A as 'H'];
  const iss = 1 - (1 - c) * (1 - i) * (1 - a);
  const impact = changed ? 7.52 * (iss - 0.029) - 3.25 * Math.pow(iss - 0.02, 15) : 6.42 * iss;
  const exploitability = 8.22 * WEIGHTS.AV[m.AV as 'N'] * WEIGHTS.AC[m.AC as 'L'] * pr * WEIGHTS.UI[m.UI as 'N'];
  if (impact <= 0) return 0;
  return changed ? roundUp(Math.min(1.08 * (impact + exploitability), 10)) : roundUp(Math.min(impact + exploitability, 10));
}

/** A copy of the vector with some metrics changed (a finding whose impact differs from its check's default). */
export function adjustCvss(vector: string, changes: Partial<CvssMetrics>): string {
  const m = { ...parseCvssVector(vector), ...changes };
  return PREFIX + METRICS.map((k) => `${k}:${m[k]}`).join('/');
}
