// Short numeric codes (OTP, PIN, verification and reset codes of 4-8 digits) in request bodies: which
// field holds one and how many digits it has. One check owns such routes (api2-short-code-brute-force);
// the login brute-force and the business-flow checks leave them to it, so a route is reported once.

import type { Endpoint, JsonSchema } from '../../../../shared/contract';
import { schemaShape } from './objects';

const CODE_NAME = /^(code|otp|pin|passcode|pass_?code|totp|mfa_?code|otp_?code|sms_?code|pin_?code|two_?factor_?code|2fa_?code|(verification|verify|confirmation|confirm|security|reset|auth|one_?time)_?code)$/i;
/** Names that mean a short code even when the schema gives no length (a bare "code" only on a route that says so). */
const OTP_NAME = /^(otp|pin|passcode|pass_?code|totp|mfa_?code|otp_?code|sms_?code|pin_?code|two_?factor_?code|2fa_?code|verification_?code|verify_?code)$/i;
const ACCOUNT_ROUTE = /(^|[^a-z])(reset|recover|forgot|confirm|password|auth|log-?in|sign-?in|account|e-?mail|phone)([^a-z]|$)/i;
const CODE_ROUTE = /(^|[^a-z])(otp|totp|2fa|mfa|pin|passcode|verify|verification|one-?time|two-?factor)([^a-z]|$)/i;
/** A password the caller must already know (not a new one being set): the route is a login, with or without a second factor. */
const CURRENT_SECRET = /^(password|passwd|pass|pwd|passphrase)$/i;
const NEW_SECRET = /^(new|confirm|repeat)/i;
const WRITE = ['POST', 'PUT', 'PATCH'];

export interface ShortCode {
  field: string;
  digits: number;
  /** The schema pins the length; otherwise `digits` is a guess the check confirms from the API's answers. */
  known: boolean;
}

/** How many digits a schema allows, when it pins the value to 4-8 digits; null when it says nothing or something else. */
function digitsOf(schema: JsonSchema | null): number | null | 'other' {
  if (!schema) return null;
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : null;
  if (pattern) {
    const m = /^\^?(?:\[0-9\]|\\d)\{(\d+)(?:,(\d+))?\}\$?$/.exec(pattern);
    if (!m) return 'other';
    const n = Number(m[2] ?? m[1]);
    return n >= 4 && n <= 8 ? n : 'other';
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const max = typeof schema.maximum === 'number' ? schema.maximum : null;
    if (max === null) return null;
    const n = String(Math.floor(max)).length;
    return n >= 4 && n <= 8 ? n : 'other';
  }
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : null;
  if (max !== null && (max < 4 || max > 8)) return 'other';
  if (schema.format && schema.format !== 'numeric') return 'other';
  return max;
}

function words(e: Endpoint): string {
  return `${e.path.replace(/\{[^}]*\}/g, ' ')} ${e.operation_id ?? ''} ${e.summary}`.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** The body field that takes a short numeric code, with its length (6 when the schema does not say). */
export function shortCodeField(e: Endpoint): ShortCode | null {
  if (!WRITE.includes(e.method)) return null;
  const props = schemaShape(e.request_body?.schema ?? null).props;
  for (const [name, schema] of Object.entries(props)) {
    if (!CODE_NAME.test(name)) continue;
    const digits = digitsOf(schema);
    if (digits === 'other') continue;
    const bare = /^code$/i.test(name);
    // A bare "code" is a coupon or a product code unless the route is about accounts; with no length it may be a long token.
    if (bare && !CODE_ROUTE.test(words(e)) && (digits === null || !ACCOUNT_ROUTE.test(words(e)))) continue;
    if (!bare && digits === null && !OTP_NAME.test(name)) continue;
    return { field: name, digits: digits ?? 6, known: digits !== null };
  }
  return null;
}

/** A route that checks a short code and is not a password login (a login with a second factor needs the password first). */
export function isShortCodeRoute(e: Endpoint): boolean {
  if (!shortCodeField(e)) return false;
  const props = Object.keys(schemaShape(e.request_body?.schema ?? null).props);
  return !props.some((p) => CURRENT_SECRET.test(p) && !NEW_SECRET.test(p));
}
