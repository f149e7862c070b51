// Vector charts for the PDF reports: the score gauge, severity bars and donut, and the score trend.
// Shapes are paths (they scale and print sharply); every number and label is real text, so it can
// be searched, copied and read by pdftotext.

import { SEVERITY_LEVELS, severityLevel, type SeverityLevel } from '../../../shared/severity';
import { LEVEL_LABELS } from '../model';
import { THEME, type Flow } from './layout';

export const CRITICAL_COLOR = '#6a1b9a';
/** One colour per level: critical has its own. */
export const SEVERITY_COLORS: Record<SeverityLevel, string> = {
  critical: CRITICAL_COLOR,
  high: '#c62828',
  medium: '#e65100',
  low: '#c49000',
  info: '#1e63c4',
};

/** A finding's colour: its level's. */
export function levelColor(f: { severity: string; cvss_score?: number | null }): string {
  return SEVERITY_COLORS[severityLevel(f)];
}

const BANDS: [number, number, string][] = [
  [0, 50, '#c62828'],
  [50, 70, '#e65100'],
  [70, 90, '#d4a106'],
  [90, 100, '#2e7d32'],
];

export function scoreColor(score: number): string {
  return BANDS.find(([from, to]) => score >= from && (score < to || to === 100))?.[2] ?? BANDS[0]![2];
}

export function scoreRating(score: number): string {
  if (score >= 90) return 'Good';
  if (score >= 70) return 'Fair';
  if (score >= 50) return 'Poor';
  return 'Critical';
}

const f = (n: number): string => (Math.round(n * 100) / 100).toString();

/** A ring segment between angles a0 and a1 (radians, clockwise from 12 o'clock), as an SVG path. */
function ringSegment(cx: number, cy: number, ro: number, ri: number, a0: number, a1: number): string {
  const pt = (r: number, a: number) => `${f(cx + r * Math.sin(a))} ${f(cy - r * Math.cos(a))}`;
  const large = a1 - a0 > Math.PI ? 1 : 0;
  return `M ${pt(ro, a0)} A ${f(ro)} ${f(ro)} 0 ${large} 1 ${pt(ro, a1)} L ${pt(ri, a1)} A ${f(ri)} ${f(ri)} 0 ${large} 0 ${pt(ri, a0)} Z`;
}

/** Semicircular gauge from 0 (left) to 100 (right) with coloured bands, a needle and the score. */
export function gauge(flow: Flow, x: number, top: number, width: number, score: number): number {
  const ro = Math.min(width / 2 - 6, 92);
  const ri = ro - 18;
  const cx = x + width / 2;
  const cy = top + ro + 6;
  // Score s sits at angle -90 deg (left) + 180 * s / 100, clockwise from 12 o'clock.
  const angle = (s: number) => (-Math.PI / 2) + (Math.PI * s) / 100;
  for (const [from, to, color] of BANDS) flow.push({ k: 'path', d: ringSegment(cx, cy, ro, ri, angle(from), angle(to)), fill: color });
  // Ticks and their labels.
  for (const t of [0, 50, 70, 90, 100]) {
    const a = angle(t);
    flow.push({ k: 'line', x1: cx + (ro + 1) * Math.sin(a), y1: cy - (ro + 1) * Math.cos(a), x2: cx + (ro + 5) * Math.sin(a), y2: cy - (ro + 5) * Math.cos(a), color: THEME.muted, width: 0.8 });
  }
  flow.textAt('0', cx - ro - 2, cy + 3, { font: 'sans', size: 7, color: THEME.muted }, { align: 'center', width: 0 });
  flow.textAt('100', cx + ro + 2, cy + 3, { font: 'sans', size: 7, color: THEME.muted }, { align: 'center', width: 0 });
  // Needle: a thin triangle from the hub to just inside the band.
  const s = Math.max(0, Math.min(100, score));
  const a = angle(s);
  const tip = { x: cx + (ri - 4) * Math.sin(a), y: cy - (ri - 4) * Math.cos(a) };
  const b1 = { x: cx + 4 * Math.sin(a + Math.PI / 2), y: cy - 4 * Math.cos(a + Math.PI / 2) };
  const b2 = { x: cx + 4 * Math.sin(a - Math.PI / 2), y: cy - 4 * Math.cos(a - Math.PI / 2) };
  flow.push({ k: 'path', d: `M ${f(b1.x)} ${f(b1.y)} L ${f(tip.x)} ${f(tip.y)} L ${f(b2.x)} ${f(b2.y)} Z`, fill: THEME.ink });
  flow.push({ k: 'circle', x: cx, y: cy, r: 6, fill: THEME.ink });
  const color = scoreColor(s);
  flow.textAt(String(Math.round(s)), x, cy + 10, { font: 'bold', size: 28, color, leading: 1.1 }, { align: 'center', width });
  flow.textAt(`out of 100 · ${scoreRating(s)}`, x, cy + 44, { font: 'bold', size: 9, color }, { align: 'center', width });
  return cy + 62 - top;
}

/** Horizontal bars, one per level (critical first), with the count at the end of each bar. */
export function severityBars(flow: Flow, x: number, top: number, width: number, counts: Record<SeverityLevel, number>): number {
  const labelW = 52;
  const countW = 28;
  const barH = 12;
  const gap = 7;
  const max = Math.max(1, ...Object.values(counts));
  const severities = SEVERITY_LEVELS;
  severities.forEach((sev, i) => {
    const y = top + i * (barH + gap);
    flow.textAt(LEVEL_LABELS[sev], x, y - 1, { font: 'sans', size: 9, color: THEME.ink, leading: 1.6 });
    const track = width - labelW - countW;
    flow.push({ k: 'rect', x: x + labelW, y, w: track, h: barH, fill: '#eef1f5' });
    const w = (track * counts[sev]) / max;
    if (w > 0) flow.push({ k: 'rect', x: x + labelW, y, w: Math.max(w, 2), h: barH, fill: SEVERITY_COLORS[sev] });
    flow.textAt(String(counts[sev]), x + labelW + track + 4, y - 1, { font: 'bold', size: 9, color: THEME.ink, leading: 1.6 });
  });
  return severities.length * (barH + gap);
}

/**
 * Donut of the vulnerabilities' split by level, their number in the middle: informational findings are
 * not vulnerabilities and are left out (the bars show them).
 */
export function severityDonut(flow: Flow, cx: number, cy: number, r: number, counts: Record<SeverityLevel, number>): void {
  const levels = SEVERITY_LEVELS.filter((l) => l !== 'info');
  const total = levels.reduce((a, l) => a + counts[l], 0);
  // A thinner ring than before: "vulnerabilities" fits inside it.
  const ri = r * 0.66;
  if (total === 0) {
    flow.push({ k: 'path', d: ringSegment(cx, cy, r, ri, 0, Math.PI) + ' ' + ringSegment(cx, cy, r, ri, Math.PI, 2 * Math.PI), fill: '#e3e8ee' });
  } else {
    let a = 0;
    for (const sev of levels) {
      const span = (2 * Math.PI * counts[sev]) / total;
      if (span <= 0) continue;
      // A full ring is drawn as two halves: an arc cannot start and end at the same point.
      if (span > Math.PI) {
        flow.push({ k: 'path', d: ringSegment(cx, cy, r, ri, a, a + span / 2), fill: SEVERITY_COLORS[sev] });
        flow.push({ k: 'path', d: ringSegment(cx, cy, r, ri, a + span / 2, a + span), fill: SEVERITY_COLORS[sev] });
      } else flow.push({ k: 'path', d: ringSegment(cx, cy, r, ri, a, a + span), fill: SEVERITY_COLORS[sev] });
      a += span;
    }
  }
  flow.textAt(String(total), cx - ri, cy - 13, { font: 'bold', size: 17, color: THEME.ink, leading: 1.1 }, { align: 'center', width: ri * 2 });
  flow.textAt(total === 1 ? 'vulnerability' : 'vulnerabilities', cx - ri, cy + 6, { font: 'sans', size: 6.2, color: THEME.muted }, { align: 'center', width: ri * 2 });
}

export interface TrendPoint {
  label: string;
  score: number | null;
  current: boolean;
}

/** Score over time: gridlines at 0/25/50/75/100, a line through the scans, the current one marked. */
export function trendChart(flow: Flow, x: number, top: number, width: number, height: number, points: TrendPoint[]): void {
  const axisW = 26;
  const labelH = 16;
  const x0 = x + axisW;
  const w = width - axisW;
  const y0 = top + 8;
  const h = height - labelH - 8;
  const yOf = (s: number) => y0 + h - (h * s) / 100;
  for (const g of [0, 25, 50, 75, 100]) {
    flow.push({ k: 'line', x1: x0, y1: yOf(g), x2: x0 + w, y2: yOf(g), color: g === 0 ? THEME.faint : THEME.rule, width: 0.5, dash: g === 0 ? undefined : [2, 2] });
    flow.textAt(String(g), x, yOf(g) - 5, { font: 'sans', size: 7, color: THEME.muted, leading: 1.4 }, { align: 'right', width: axisW - 5 });
  }
  const step = w / Math.max(points.length, 1);
  const xs = points.map((_, i) => x0 + step * (i + 0.5));
  const scored = points.map((p, i) => ({ p, x: xs[i]! })).filter((q) => q.p.score !== null);
  if (scored.length > 1) {
    const d = scored.map((q, i) => `${i ? 'L' : 'M'} ${f(q.x)} ${f(yOf(q.p.score!))}`).join(' ');
    flow.push({ k: 'path', d, stroke: THEME.accent, width: 1.4 });
  }
  for (const q of scored) {
    const s = q.p.score!;
    flow.push({ k: 'circle', x: q.x, y: yOf(s), r: q.p.current ? 4 : 2.8, fill: q.p.current ? scoreColor(s) : THEME.white, stroke: q.p.current ? THEME.ink : THEME.accent, width: 1 });
    flow.textAt(String(s), q.x - 15, yOf(s) - 15, { font: q.p.current ? 'bold' : 'sans', size: 7, color: THEME.ink, leading: 1.4 }, { align: 'center', width: 30 });
  }
  points.forEach((p, i) => {
    flow.textAt(p.label, xs[i]! - step / 2, y0 + h + 4, { font: p.current ? 'bold' : 'sans', size: 6.5, color: THEME.muted }, { align: 'center', width: step });
  });
}
