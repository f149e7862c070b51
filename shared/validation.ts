// Validation rules of spec section 5. Each validator returns every failing rule, in the spec's order,
// as {field, message}; the client shows the first (or one per field), the server answers them all with 400.

import { APIS_MESSAGES } from './api-messages';
import { IMPORT_EXTENSIONS, LIMITS } from './constants';
import type { GraphqlOperation } from './contract';
import { graphqlOperationName } from './display';
import {
  API_MESSAGES,
  LOGIN_MESSAGES,
  PASSWORD_CHANGE_MESSAGES,
  RESET_MESSAGES,
  SETTINGS_MESSAGES,
  SIGNUP_MESSAGES,
} from './messages';

export interface ValidationError {
  field: string;
  message: string;
}

// Every free-text field is visible text (docs/decisions.md, "Free text is visible text"): line breaks
// and tabs become a space; other control (Cc) and format (Cf) characters go: NUL, ESC, C1 controls,
// bidirectional overrides, zero-width spaces, BOM; so do lone UTF-16 surrogates (Cs), which no
// encoding can store. ZWNJ and ZWJ stay between two visible characters, where Persian, Indic
// scripts and emoji sequences need them.
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/gu;
/** One line break of a multi-line field: CR LF, CR, LF, NEL, LS or PS. */
const LINE_BREAK = /\r\n|[\n\r\u0085\u2028\u2029]/;
const JOINS_BEFORE = /[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Modifier}]$/u;
const JOINS_AFTER = /^[\p{L}\p{M}\p{N}\p{Extended_Pictographic}]/u;

/** A name or title as a single line of visible text (not trimmed; schemas trim after it). */
export function singleLine(value: string): string {
  const s = value.replace(LINE_BREAKS, ' ');
  return s.replace(INVISIBLE, (ch: string, at: number) =>
    (ch === '\u200c' || ch === '\u200d') && JOINS_BEFORE.test(s.slice(Math.max(0, at - 2), at)) && JOINS_AFTER.test(s.slice(at + 1, at + 3)) ? ch : '',
  );
}

/** A multi-line text (the bio): its lines as singleLine, joined by LF; any line break becomes LF. */
export function multiLine(value: string): string {
  return value.split(LINE_BREAK).map(singleLine).join('\n');
}

/** The spec's {email} pattern: something@something.tld, no spaces and no invisible characters. */
export const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cf}\p{Cs}]+@[^\s@\p{Cc}\p{Cf}\p{Cs}]+\.[^\s@\p{Cc}\p{Cf}\p{Cs}]+$/u;
export const SETTINGS_USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;
export const PHONE_PATTERN = /^\+?[0-9\s\-()]+$/;
export const WEBSITE_PATTERN = /^https?:\/\//i;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function isValidEmail(value: string): boolean {
  return value.length <= LIMITS.emailMax && EMAIL_PATTERN.test(value);
}

export interface SignupForm {
  firstName?: unknown;
  lastName?: unknown;
  email?: unknown;
  username?: unknown;
  password?: unknown;
  /** Client-only fields; the server payload has neither. */
  confirmPassword?: unknown;
  terms?: unknown;
}

/** Sign-up rules in the spec's order. `form: false` skips the client-only confirmation and terms. */
export function validateSignup(input: SignupForm, options: { form?: boolean } = {}): ValidationError[] {
  const form = options.form ?? true;
  const errors: ValidationError[] = [];
  const firstName = text(input.firstName).trim();
  const lastName = text(input.lastName).trim();
  const email = text(input.email).trim();
  const username = text(input.username).trim();
  const password = text(input.password);
  if (!firstName) errors.push({ field: 'firstName', message: SIGNUP_MESSAGES.firstNameRequired });
  if (!lastName) errors.push({ field: 'lastName', message: SIGNUP_MESSAGES.lastNameRequired });
  if (!email) errors.push({ field: 'email', message: SIGNUP_MESSAGES.emailRequired });
  else if (!isValidEmail(email)) errors.push({ field: 'email', message: SIGNUP_MESSAGES.emailInvalid });
  if (!username) errors.push({ field: 'username', message: SIGNUP_MESSAGES.usernameRequired });
  else if (username.length < LIMITS.signupUsernameMin)
    errors.push({ field: 'username', message: SIGNUP_MESSAGES.usernameTooShort });
  if (!password) errors.push({ field: 'password', message: SIGNUP_MESSAGES.passwordRequired });
  else if (password.length < LIMITS.passwordMin)
    errors.push({ field: 'password', message: SIGNUP_MESSAGES.passwordTooShort });
  if (form) {
    if (text(input.confirmPassword) !== password)
      errors.push({ field: 'confirmPassword', message: SIGNUP_MESSAGES.passwordsMustMatch });
    if (input.terms !== true) errors.push({ field: 'terms', message: SIGNUP_MESSAGES.termsRequired });
  }
  return errors;
}

/** The payload the sign-up form sends: trimmed, email and username lower-cased. */
export function signupPayload(input: SignupForm): {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
} {
  return {
    firstName: singleLine(text(input.firstName)).trim(),
    lastName: singleLine(text(input.lastName)).trim(),
    email: text(input.email).trim().toLowerCase(),
    username: text(input.username).trim().toLowerCase(),
    password: text(input.password),
  };
}

export function validateLogin(input: { identifier?: unknown; password?: unknown }): ValidationError[] {
  if (!text(input.identifier).trim() || !text(input.password))
    return [{ field: 'identifier', message: LOGIN_MESSAGES.bothRequired }];
  return [];
}

/** The identifier goes out as `email` when it contains @, otherwise as `username`. */
export function loginPayload(
  identifier: string,
  password: string,
): { email: string; password: string } | { username: string; password: string } {
  const id = identifier.trim();
  return id.includes('@') ? { email: id.toLowerCase(), password } : { username: id.toLowerCase(), password };
}

export interface PasswordChangeForm {
  currentPassword?: unknown;
  newPassword?: unknown;
  confirmPassword?: unknown;
}

export function validatePasswordChange(input: PasswordChangeForm): ValidationError[] {
  const errors: ValidationError[] = [];
  const current = text(input.currentPassword);
  const next = text(input.newPassword);
  const confirm = text(input.confirmPassword);
  if (!current) errors.push({ field: 'currentPassword', message: PASSWORD_CHANGE_MESSAGES.currentRequired });
  if (!next) {
    errors.push({ field: 'newPassword', message: PASSWORD_CHANGE_MESSAGES.newRequired });
  } else {
    if (next.length < LIMITS.passwordMin)
      errors.push({ field: 'newPassword', message: PASSWORD_CHANGE_MESSAGES.tooShort });
    if (!/[a-z]/.test(next)) errors.push({ field: 'newPassword', message: PASSWORD_CHANGE_MESSAGES.lowercase });
    if (!/[A-Z]/.test(next)) errors.push({ field: 'newPassword', message: PASSWORD_CHANGE_MESSAGES.uppercase });
    if (!/[0-9]/.test(next)) errors.push({ field: 'newPassword', message: PASSWORD_CHANGE_MESSAGES.number });
  }
  if (confirm !== next)
    errors.push({ field: 'confirmPassword', message: PASSWORD_CHANGE_MESSAGES.confirmMismatch });
  if (current && next && current === next)
    errors.push({ field: 'newPassword', message: PASSWORD_CHANGE_MESSAGES.mustDiffer });
  return errors;
}

export interface ResetForm {
  token?: unknown;
  password?: unknown;
  /** Client-only. */
  confirmPassword?: unknown;
}

export function validateReset(input: ResetForm, options: { form?: boolean } = {}): ValidationError[] {
  const form = options.form ?? true;
  const errors: ValidationError[] = [];
  const password = text(input.password);
  if (password.length < LIMITS.passwordMin) errors.push({ field: 'password', message: RESET_MESSAGES.tooShort });
  if (form) {
    const confirm = text(input.confirmPassword);
    if (confirm.length < LIMITS.passwordMin)
      errors.push({ field: 'confirmPassword', message: RESET_MESSAGES.tooShort });
    if (confirm !== password) errors.push({ field: 'confirmPassword', message: RESET_MESSAGES.mismatch });
  }
  if (!text(input.token).trim()) errors.push({ field: 'token', message: RESET_MESSAGES.missingToken });
  return errors;
}

export function validateShare(input: { email?: unknown }): ValidationError[] {
  const email = text(input.email).trim();
  if (!email) return [{ field: 'email', message: API_MESSAGES.enterEmail }];
  if (!isValidEmail(email)) return [{ field: 'email', message: SIGNUP_MESSAGES.emailInvalid }];
  return [];
}

export function validateImportFile(file: { name: string } | null | undefined): ValidationError[] {
  if (!file || !file.name) return [{ field: 'file', message: API_MESSAGES.selectFile }];
  const lower = file.name.toLowerCase();
  if (!IMPORT_EXTENSIONS.some((ext) => lower.endsWith(ext)))
    return [{ field: 'file', message: API_MESSAGES.unsupportedFile }];
  return [];
}

export function validateScanConfig(input: { api_key_1?: unknown }): ValidationError[] {
  if (!text(input.api_key_1).trim()) return [{ field: 'api_key_1', message: API_MESSAGES.primaryKeyRequired }];
  return [];
}

export interface SettingsProfileForm {
  firstName?: unknown;
  lastName?: unknown;
  username?: unknown;
}

function nameRules(
  field: 'firstName' | 'lastName',
  value: string,
  messages: { required: string; short: string; long: string },
): ValidationError[] {
  if (!value) return [{ field, message: messages.required }];
  if (value.length < LIMITS.nameMin) return [{ field, message: messages.short }];
  if (value.length > LIMITS.nameMax) return [{ field, message: messages.long }];
  return [];
}

/** Basic profile of Settings: first name, last name, optional username. */
export function validateSettingsProfile(input: SettingsProfileForm): ValidationError[] {
  const errors: ValidationError[] = [
    ...nameRules('firstName', text(input.firstName).trim(), {
      required: SETTINGS_MESSAGES.firstNameRequired,
      short: SETTINGS_MESSAGES.firstNameTooShort,
      long: SETTINGS_MESSAGES.firstNameTooLong,
    }),
    ...nameRules('lastName', text(input.lastName).trim(), {
      required: SETTINGS_MESSAGES.lastNameRequired,
      short: SETTINGS_MESSAGES.lastNameTooShort,
      long: SETTINGS_MESSAGES.lastNameTooLong,
    }),
  ];
  const username = text(input.username).trim();
  if (username) {
    if (username.length < LIMITS.settingsUsernameMin)
      errors.push({ field: 'username', message: SETTINGS_MESSAGES.usernameTooShort });
    else if (username.length > LIMITS.settingsUsernameMax)
      errors.push({ field: 'username', message: SETTINGS_MESSAGES.usernameTooLong });
    else if (!SETTINGS_USERNAME_PATTERN.test(username))
      errors.push({ field: 'username', message: SETTINGS_MESSAGES.usernameChars });
  }
  return errors;
}

export interface ExtendedProfileForm {
  phone?: unknown;
  website_url?: unknown;
  bio?: unknown;
}

/** Extended profile of Settings: phone, website and bio rules. */
export function validateExtendedProfile(input: ExtendedProfileForm): ValidationError[] {
  const errors: ValidationError[] = [];
  const phone = text(input.phone).trim();
  if (phone && (!PHONE_PATTERN.test(phone) || !/[0-9]/.test(phone)))
    errors.push({ field: 'phone', message: SETTINGS_MESSAGES.phoneInvalid });
  const website = text(input.website_url).trim();
  if (website && !WEBSITE_PATTERN.test(website))
    errors.push({ field: 'website_url', message: SETTINGS_MESSAGES.websiteInvalid });
  if (text(input.bio).length > LIMITS.bioMax) errors.push({ field: 'bio', message: SETTINGS_MESSAGES.bioTooLong });
  return errors;
}

/** Flags modal search: by method or path, or a GraphQL operation's name ("Query.loan"), case-insensitive. */
export function matchesEndpointSearch(
  endpoint: { method: string; path: string; graphql?: Pick<GraphqlOperation, 'kind' | 'field'> | null },
  query: string,
): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  if (endpoint.graphql && graphqlOperationName(endpoint.graphql).toLowerCase().includes(q)) return true;
  return endpoint.method.toLowerCase().includes(q) || endpoint.path.toLowerCase().includes(q);
}

/** The URL of a live GraphQL endpoint to introspect: the server's rules (POST /api/import/graphql), first failing one. */
export function validateGraphqlUrl(url: string): string | null {
  const value = url.trim();
  if (!value) return APIS_MESSAGES.graphqlUrlRequired;
  if (value.length > LIMITS.urlMax) return APIS_MESSAGES.graphqlUrlTooLong;
  if (!isHttpUrl(value)) return APIS_MESSAGES.graphqlUrlInvalid;
  return null;
}

/** The URL of an API description to fetch: the server's rules (POST /api/import/url), first failing one. */
export function validateSpecUrl(url: string): string | null {
  const value = url.trim();
  if (!value) return APIS_MESSAGES.specUrlRequired;
  if (value.length > LIMITS.urlMax) return APIS_MESSAGES.specUrlTooLong;
  if (!isHttpUrl(value)) return APIS_MESSAGES.specUrlInvalid;
  return null;
}

/** True for an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
