// Time-based proof for the injection checks: a delay that follows the injected number of seconds,
// measured against a re-timed baseline.


import type { Exchange } from '../../http/exchange';
import type { CheckContext } from '../types';
import { reference } from './injection';
import {
    AS_KEY1,
    confirmDelay,
    delayed,
    ms,
    valueText,
    type DelayProof,
    type InjectionPoint,
    type PointSource,
} from './input-points';
import { confirmUntilAgreed, MAX_CONFIRMATIONS, timingScreen } from './timing-gate';

export function delayNotes(proof: DelayProof, baseMs: number): string[] {
  return [
    `Baseline time: ${ms(baseMs)}. Asking for ${proof.delays[0]} s: ${ms(proof.first.durationMs)}; for ${proof.delays[1]} s: ${ms(proof.second.durationMs)}; ` +
      `for 0 s: ${ms(proof.control.durationMs)}.`,
  ];
}

/** The four exchanges of a time-based proof: the timed baseline, both delays and the 0 s control. */
export function delayExchanges(baseline: Exchange, proof: DelayProof): { label: string; exchange: Exchange }[] {
  return [
    { label: 'Baseline (re-sent, timed)', exchange: baseline },
    { label: `Attack: sleep ${proof.delays[0]} s`, exchange: proof.first },
    { label: `Confirmation: sleep ${proof.delays[1]} s`, exchange: proof.second },
    { label: 'Control: sleep 0 s', exchange: proof.control },
  ];
}

type DelayTemplate = (value: string, seconds: number) => string;

/** Requests of one confirmation: the re-timed baseline, both delays and the 0 s control. */
export const TIME_CONFIRM_REQUESTS = 4;
/** A check's budget for its time-based confirmations (a second one when the first disagrees with the screening). */
export const TIME_CONFIRM_BUDGET = MAX_CONFIRMATIONS * TIME_CONFIRM_REQUESTS;

/** A first baseline slower than this is timed again before screening (a cold start hides a 1 s delay). */
const SLOW_BASELINE_MS = 300;

interface TimeProof {
  point: InjectionPoint;
  template: DelayTemplate;
  /** The payload at a delay, on the point's value. */
  payload: (seconds: number) => string;
  /** The unchanged request re-timed before the confirmation. */
  ref: Exchange;
  baseMs: number;
  proof: DelayProof;
}

/**
 * Time-based proof for delaying payloads: each template is screened at 1 s alongside the scan's other
 * requests (timingScreen); one that answers late is confirmed alone: the unchanged request re-timed, then
 * 1 s again, 2 s and 0 s (confirmDelay), once more when that does not agree with the screening
 * (confirmUntilAgreed).
 */
export async function timeBased(
  ctx: CheckContext,
  src: PointSource,
  baseline: Exchange,
  points: InjectionPoint[],
  templatesFor: (p: InjectionPoint) => DelayTemplate[],
): Promise<TimeProof | null> {
  const send = async (name: string, value: string): Promise<Exchange | null> => {
    if (ctx.budgetLeft() <= 0) return null;
    const p = await src.get(name);
    return p ? ctx.sendPrepared(p.with(value), AS_KEY1) : null;
  };
  let screenMs = baseline.durationMs;
  if (screenMs > SLOW_BASELINE_MS) {
    const again = await timingScreen(ctx, () => reference(ctx, src));
    if (again?.response) screenMs = Math.min(screenMs, again.durationMs);
  }
  for (const p of points) {
    const v = valueText(p);
    for (const t of templatesFor(p)) {
      const probe = await timingScreen(ctx, () => send(p.name, t(v, 1)));
      if (!probe) return null;
      if (!delayed(probe, screenMs, 1)) continue;
      const confirmed = await confirmUntilAgreed(ctx, async (): Promise<TimeProof | null> => {
        const ref = await reference(ctx, src);
        if (!ref?.response) return null;
        const baseMs = Math.min(ref.durationMs, baseline.durationMs);
        let last: Exchange = probe;
        const proof = await confirmDelay(async (d) => (last = (await send(p.name, t(v, d))) ?? last), baseMs);
        return proof && { point: p, template: t, payload: (d) => t(v, d), ref, baseMs, proof };
      });
      if (confirmed) return confirmed;
    }
  }
  return null;
}
