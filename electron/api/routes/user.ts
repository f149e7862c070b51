// /api/user/*: profile, password change, preferences and the extended profile of Settings.

import type { Hono } from 'hono';
import { z } from 'zod';
import { EMAIL_FREQUENCIES, LIMITS, SCAN_PROFILE_ALIASES, THEMES, type Preferences } from '../../../shared/constants';
import { QUOTA_MESSAGES } from '../../../shared/api-messages';
import type { ExtendedProfile, UsageData } from '../../../shared/contract';
import { PASSWORD_CHANGE_MESSAGES, SERVER_MESSAGES, SETTINGS_MESSAGES } from '../../../shared/messages';
import {
  isHttpUrl,
  multiLine,
  singleLine,
  validateExtendedProfile,
  validatePasswordChange,
  validateSettingsProfile,
  type ValidationError,
} from '../../../shared/validation';
import { isUniqueViolation } from '../../store/dialect';
import { toUser } from '../../store/users';
import type { Services } from '../../services';
import { clientInfo } from '../client-info';
import type { AppEnv } from '../env';
import { conflict, validationError } from '../errors';
import { jsonBody, parseBody } from '../input';
import { ok } from '../respond';
import { asApiError } from '../scan-errors';
import { PROXY_LIMITS, SCAN_TRAFFIC_MESSAGES } from '../../../shared/scan-traffic';

/** Settings → Scan traffic: the URL and CA are checked in depth by the scan service (proxy-settings.ts). */
const scanTrafficSchema = z.object({
  proxy_url: z.string({ error: 'proxy_url must be a URL or null.' }).max(PROXY_LIMITS.urlMax, { error: `The proxy URL is too long (at most ${PROXY_LIMITS.urlMax} characters).` }).nullable(),
  proxy_password: z.string().max(1024, { error: 'The proxy password is too long.' }).optional(),
  ca_pem: z.string().max(PROXY_LIMITS.caMaxBytes, { error: `The CA file is too large (at most ${PROXY_LIMITS.caMaxBytes / 1024} KB).` }).nullable().optional(),
});

const MIN_SESSION_TIMEOUT = 5;
const MAX_SESSION_TIMEOUT = 24 * 60;

const preferencesSchema = z.object({
  preferences: z.object(
    {
      notifications: z
        .object({
          scanCompleted: z.boolean(),
          criticalFindings: z.boolean(),
          weeklyReport: z.boolean(),
          productUpdates: z.boolean(),
          emailDigest: z.boolean(),
          smsAlerts: z.boolean(),
        })
        .partial()
        .optional(),
      security: z
        .object({
          // Two-factor state is the server's: it turns on only through enrolment.
          twoFactorAuth: z.boolean(),
          sessionTimeout: z
            .union([z.string(), z.number()])
            .transform((v) => String(v).trim())
            .refine(
              (v) => /^\d+$/.test(v) && Number(v) >= MIN_SESSION_TIMEOUT && Number(v) <= MAX_SESSION_TIMEOUT,
              { error: `Session timeout must be between ${MIN_SESSION_TIMEOUT} and ${MAX_SESSION_TIMEOUT} minutes.` },
            ),
          loginNotifications: z.boolean(),
        })
        .partial()
        .optional(),
      preferences: z
        .object({
          theme: z.enum(THEMES, { error: 'Theme must be auto, light or dark.' }),
          defaultScanProfile: z.enum(SCAN_PROFILE_ALIASES, { error: 'Unknown scan profile.' }),
          autoSaveReports: z.boolean(),
          emailFrequency: z.enum(EMAIL_FREQUENCIES, { error: 'Email frequency must be daily, weekly, monthly or never.' }),
        })
        .partial()
        .optional(),
    },
    { error: 'preferences is required.' },
  ),
});

// Every field is cleaned to visible text before its rules (shared/validation: singleLine, multiLine).
const text = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text.` })
    .overwrite(singleLine)
    .max(max, { error: `${label} must be at most ${max} characters.` });

const extendedSchema = z.object({
  phone: text(40, 'Phone').optional(),
  company: text(LIMITS.shortTextMax, 'Company').optional(),
  position: text(LIMITS.shortTextMax, 'Position').optional(),
  timezone: text(64, 'Timezone').optional(),
  avatar_url: text(LIMITS.urlMax, 'Avatar URL')
    .refine((v) => v === '' || isHttpUrl(v), { error: 'Avatar URL must be an http:// or https:// address.' })
    .optional(),
  // Length rule of the bio comes from the spec validator below, with its message.
  bio: z.string({ error: 'Bio must be text.' }).overwrite(multiLine).optional(),
  website_url: text(LIMITS.urlMax, 'Website URL').optional(),
  location: text(LIMITS.shortTextMax, 'Location').optional(),
});

export function registerUserRoutes(app: Hono<AppEnv>, s: Services): void {
  app.get('/api/user/profile', (c) => ok(c, SERVER_MESSAGES.profileOk, { user: toUser(c.get('user')) }));

  // What the caller's own APIs hold against the quotas (issue 18, item 6); null = no limit.
  app.get('/api/user/usage', async (c) => {
    const { quotas } = s.config;
    const limits = { apis: quotas.apis || null, endpoints: quotas.endpoints || null, bytes: quotas.bytes || null };
    return ok(c, QUOTA_MESSAGES.usage, { usage: await s.repos.quotas.usage(c.get('user').id), limits } satisfies UsageData);
  });

  app.put('/api/user/update', async (c) => {
    const me = c.get('user');
    const raw = await jsonBody(c);
    // Names are one line of visible text; cleaned before the length rules so "\u200b\u200b" is empty.
    const line = (v: unknown) => (typeof v === 'string' ? singleLine(v) : v);
    const body: Record<string, unknown> = { ...raw, firstName: line(raw.firstName), lastName: line(raw.lastName) };
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    const changesUsername = username !== '' && username.toLowerCase() !== me.username;
    // An unchanged username is not re-validated: sign-up allows a wider set of names.
    const errors = validateSettingsProfile({ ...body, username: changesUsername ? username : '' });
    if (errors.length) throw validationError(errors);
    if (changesUsername) {
      const holder = await s.repos.users.findByUsername(username);
      if (holder && holder.id !== me.id) throw conflict(SETTINGS_MESSAGES.usernameTaken, 'username');
    }
    const firstName = String(body.firstName).trim();
    const lastName = String(body.lastName).trim();
    try {
      await s.repos.users.updateNames(me.id, { firstName, lastName, ...(changesUsername ? { username } : {}) }, s.clock.now());
    } catch (err) {
      if (isUniqueViolation(err, 'users.username')) throw conflict(SETTINGS_MESSAGES.usernameTaken, 'username');
      throw err;
    }
    const user = await s.repos.users.findById(me.id);
    return ok(c, SERVER_MESSAGES.profileUpdated, { user: toUser(user!) });
  });

  app.put('/api/user/password', async (c) => {
    const body = await jsonBody(c);
    const errors = validatePasswordChange(body);
    if (typeof body.newPassword === 'string' && body.newPassword.length > LIMITS.passwordMax)
      errors.push({ field: 'newPassword', message: 'Password is too long.' });
    if (errors.length) throw validationError(errors);
    await s.accounts.changePassword(
      c.get('user'),
      c.get('session'),
      String(body.currentPassword),
      String(body.newPassword),
      clientInfo(c),
    );
    return ok(c, PASSWORD_CHANGE_MESSAGES.success);
  });

  /** `security.twoFactorAuth` is the account's real state (enrolment turns it on), never a stored wish. */
  const withTwoFactor = (prefs: Preferences, user: { totp_enabled: number }): Preferences => ({
    ...prefs,
    security: { ...prefs.security, twoFactorAuth: user.totp_enabled === 1 },
  });

  app.get('/api/user/preferences', async (c) => {
    const preferences = await s.repos.userSettings.getPreferences(c.get('user').id);
    return ok(c, SERVER_MESSAGES.ok, { preferences: withTwoFactor(preferences, c.get('user')) });
  });

  app.put('/api/user/preferences', async (c) => {
    const userId = c.get('user').id;
    const input = await parseBody(c, preferencesSchema);
    const current = await s.repos.userSettings.getPreferences(userId);
    const next: Preferences = {
      notifications: { ...current.notifications, ...input.preferences.notifications },
      security: {
        ...current.security,
        ...input.preferences.security,
        twoFactorAuth: c.get('user').totp_enabled === 1,
      },
      preferences: {
        ...current.preferences,
        ...input.preferences.preferences,
      },
    };
    await s.repos.userSettings.setPreferences(userId, next, s.clock.now());
    if (next.security.sessionTimeout !== current.security.sessionTimeout) await s.accounts.applySessionTimeout(userId);
    return ok(c, SERVER_MESSAGES.preferencesUpdated, { preferences: next });
  });

  // The proxy answers never carry its password (masked, or left out).
  app.get('/api/user/scan-traffic', async (c) => {
    const traffic = await s.scans.trafficSettings(c.get('user').id).catch(asApiError);
    return ok(c, SERVER_MESSAGES.ok, { traffic });
  });

  app.put('/api/user/scan-traffic', async (c) => {
    const input = await parseBody(c, scanTrafficSchema);
    const traffic = await s.scans.updateTrafficSettings(c.get('user').id, input).catch(asApiError);
    return ok(c, SCAN_TRAFFIC_MESSAGES.saved, { traffic });
  });

  app.get('/api/user/extended-profile', async (c) => {
    const profile = await s.repos.userSettings.getProfile(c.get('user').id);
    return ok(c, SERVER_MESSAGES.ok, { profile });
  });

  app.put('/api/user/extended-profile', async (c) => {
    const userId = c.get('user').id;
    const input = await parseBody(c, extendedSchema);
    const errors: ValidationError[] = validateExtendedProfile(input);
    if (errors.length) throw validationError(errors);
    const current = await s.repos.userSettings.getProfile(userId);
    const trimmed = Object.fromEntries(
      Object.entries(input).filter(([, v]) => v !== undefined).map(([k, v]) => [k, k === 'bio' ? v : String(v).trim()]),
    ) as Partial<ExtendedProfile>;
    const profile: ExtendedProfile = { ...current, ...trimmed };
    await s.repos.userSettings.setProfile(userId, profile, s.clock.now());
    return ok(c, SERVER_MESSAGES.extendedUpdated, { profile });
  });
}
