// Balance-like fields (credit, balance, wallet, points) a client should never set on its own account,
// and how to tell one stuck: the profile shows exactly the distinctive amount that was sent. A
// privilege is told by its value (admin, true); an amount only by being the one the scan chose.

/** An amount no account holds by chance (the one api3-mass-assignment adds to a gain-like field). */
export const BALANCE_AMOUNT = 31337;

/** Sent with a sign-up when the profile does not name its balance fields. */
export const BALANCE_FIELDS: Readonly<Record<string, number>> = { credit: BALANCE_AMOUNT, credits: BALANCE_AMOUNT, balance: BALANCE_AMOUNT, wallet: BALANCE_AMOUNT, points: BALANCE_AMOUNT };

const BALANCE_NAME = /^(store_?|account_?|wallet_?|loyalty_?|reward_?|bonus_?)?(credits?|balance|wallet|points|bonus|rewards?)(_?balance)?$/i;

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

/** A field's amount in a profile, by name at any depth (up to 3); undefined when absent or not a number. */
export function balanceIn(body: unknown, field: string): number | undefined {
  const visit = (v: unknown, depth: number): number | undefined => {
    if (!v || typeof v !== 'object' || Array.isArray(v) || depth > 3) return undefined;
    for (const [k, x] of Object.entries(v)) if (k.toLowerCase() === field.toLowerCase() && asNumber(x) !== undefined) return asNumber(x);
    for (const x of Object.values(v)) {
      const found = visit(x, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(body, 0);
}

/** The balance fields a profile shows, each with the amount to send: the distinctive one, or one more where the account already holds it. */
export function balanceNames(profile: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  const visit = (v: unknown, depth: number) => {
    if (!v || typeof v !== 'object' || Array.isArray(v) || depth > 3) return;
    for (const [k, x] of Object.entries(v)) {
      const n = asNumber(x);
      if (BALANCE_NAME.test(k) && n !== undefined) out[k] ??= n === BALANCE_AMOUNT ? BALANCE_AMOUNT + 1 : BALANCE_AMOUNT;
      visit(x, depth + 1);
    }
  };
  visit(profile, 0);
  return out;
}

/** Whether a sent field is a balance the check set: a balance-like name with an amount the normally registered user does not hold. */
export function setsBalance(field: string, sent: unknown, control: unknown): sent is number {
  return BALANCE_NAME.test(field) && typeof sent === 'number' && balanceIn(control, field) !== sent;
}
