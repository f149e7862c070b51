// The dashboard's bar scales: d3-scale's linear scale from 0..max onto 0..100 % of a bar's room. Its own
// module so that d3 loads with the dashboard only, never on the public pages.

import { scaleLinear } from 'd3-scale';

/** A bar's height in percent for a value, and the top of the scale it was drawn on. */
export interface BarScale {
  (value: number): number;
  readonly max: number;
}

/**
 * Scales bars to the largest finite value, at least 1 (spec section 2: so an all-zero series divides by nothing and a
 * lone 1 fills its bar). Zero, negative and non-finite values get no height; none goes past 100 %.
 */
export function barScale(values: readonly number[]): BarScale {
  const max = Math.max(1, ...values.filter((v) => Number.isFinite(v)));
  const scale = scaleLinear().domain([0, max]).range([0, 100]).clamp(true).unknown(0);
  return Object.assign((value: number) => (Number.isFinite(value) ? scale(value) : 0), { max });
}
