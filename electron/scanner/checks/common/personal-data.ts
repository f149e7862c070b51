// Whether an answer carries personal or secret data: what turns a missing rate limit or cache header
// from a remark into a risk (a client can scrape it as fast as it likes; a shared cache keeps it).
// Judged by field names with values of the right shape, and by secrets the data-exposure check
// proves by name and value; never by what a route is called.

import type { Exchange } from '../../http/exchange';
import { findSensitive } from '../api3-property-authorization/data-exposure';
import { forEachLeaf } from './objects';

const EMAIL_VALUE = /^[^\s@]{1,64}@[^\s@]{1,255}\.[a-z]{2,}$/i;
const PHONE_KEY = /^(phone|phone_?number|mobile|mobile_?number|telephone|tel|cell)$/i;
const PHONE_VALUE = /^\+?[\d ()-]{7,20}$/;
const ADDRESS_KEY = /^(address|street|street_?address|address_?line_?\d?|postcode|post_?code|postal_?code|zip|zip_?code)$/i;
const BIRTH_KEY = /^(birth_?date|date_?of_?birth|dob|birthday)$/i;
const NAME_KEY = /^(first_?name|last_?name|full_?name|given_?name|family_?name|surname)$/i;
const FINANCE_KEY = /^(iban|bank_?account|account_?number|balance|salary|income)$/i;
const TOKEN_KEY = /^(access_?token|refresh_?token|id_?token|session_?token|auth_?token|token|jwt|totp_?secret|otp_?secret|secret)$/i;

export interface PersonalData {
  /** The first field that shows it, e.g. "email" or "users[0].phone". */
  field: string;
  kind: string;
}

/** The first personal or secret value in the answer's JSON body, or null (a non-JSON body carries none that can be told). */
export function personalData(ex: Exchange): PersonalData | null {
  if (!ex.ok || !ex.body) return null;
  const body = ex.json();
  if (body === undefined || body === null) return null;
  return personalDataIn(body, ex.request.body ?? '');
}

/** The first personal or secret value in a JSON value (one record of a listing, say); `sent` is the request body, whose own values are no exposure. */
export function personalDataIn(body: unknown, sent = ''): PersonalData | null {
  const secret = findSensitive(body, sent)[0];
  if (secret) return { field: secret.path, kind: secret.kind };
  let found: PersonalData | null = null;
  let seen = 0;
  forEachLeaf(body, (v, path, key) => {
    if ((seen += 1) > 2_000) return true;
    const s = String(v).trim();
    if (!s) return;
    const kind =
      typeof v === 'string' && EMAIL_VALUE.test(s)
        ? 'an e-mail address'
        : PHONE_KEY.test(key) && PHONE_VALUE.test(s)
          ? 'a phone number'
          : ADDRESS_KEY.test(key) && s.length >= 3
            ? 'a postal address'
            : BIRTH_KEY.test(key) && /\d/.test(s)
              ? 'a date of birth'
              : NAME_KEY.test(key) && typeof v === 'string' && s.length >= 2
                ? "a person's name"
                : FINANCE_KEY.test(key)
                  ? 'financial data'
                  : TOKEN_KEY.test(key) && typeof v === 'string' && s.length >= 16
                    ? 'a token or secret'
                    : null;
    if (!kind) return;
    found = { field: path, kind };
    return true;
  });
  return found;
}
