// Business constants and limits of the product spec (section 9), shared by the core and the renderer
// so tests can import the same values the screens use.

import type { ExtendedProfile } from './contract';

export const PRODUCT_NAME = 'Portcullis';

/** Length limits (spec section 9). */
export const LIMITS = {
  signupUsernameMin: 3,
  passwordMin: 8,
  settingsUsernameMin: 3,
  settingsUsernameMax: 30,
  nameMin: 2,
  nameMax: 50,
  bioMax: 500,
  /** Not in the spec: bounds the server keeps on free-text fields so rows stay small. */
  emailMax: 254,
  passwordMax: 1024,
  shortTextMax: 100,
  urlMax: 2048,
} as const;

/** Delays in milliseconds (spec section 9). */
export const DELAYS = {
  signupRedirectMs: 1500,
  loginRedirectMs: 800,
  resetRedirectMs: 1000,
  sessionExpiredRedirectMs: 3000,
  socialBusyReleaseMs: 2000,
  successMessageMs: 3000,
  settingsSuccessBannerMs: 5000,
  enteringAnimationMs: 10,
  themeTransitionMs: 300,
  transientMessageMs: 4000,
  scanPollIntervalMs: 5000,
} as const;

/**
 * A sign-in the server refuses as busy (503 with Retry-After, its password-hashing queue full) is tried
 * again by the page: at most this many tries, none starting more than 30 s after the first, each wait
 * between 0.25 s and 5 s before its spread (issue 31, item 6).
 */
export const SIGN_IN_BUSY_RETRY = { maxTries: 12, maxTotalMs: 30_000, minWaitMs: 250, maxWaitMs: 5_000 } as const;

/** Request timeouts of the Settings client (spec section 7). */
export const SETTINGS_TIMEOUTS = { readMs: 10_000, writeMs: 15_000 } as const;

/** The flags dialog's page (spec section 9). The spec's report modal (10 findings a page) became the scan page (issue 31). */
export const PAGE_SIZES = { flagsModal: 20 } as const;

/** Report durations are shown in seconds with this many decimals. */
export const DURATION_DECIMALS = 2;

/** Landing-page scroll animation threshold. */
export const SCROLL_ANIMATION_THRESHOLD = 0.1;

export const FLAGS = [
  'BOLA',
  'BKEN_AUTH',
  'BOPLA',
  'URC',
  'BFLA',
  'UABF',
  'SSRF',
  'SEC_MISC',
  'IIM',
  'UCAPI',
  'SKIP',
] as const;
export type Flag = (typeof FLAGS)[number];

/** OWASP API Security Top 10 (2023) category of each flag; SKIP has none. */
export const FLAG_OWASP: Record<Exclude<Flag, 'SKIP'>, { id: string; title: string }> = {
  BOLA: { id: 'API1:2023', title: 'Broken Object Level Authorization' },
  BKEN_AUTH: { id: 'API2:2023', title: 'Broken Authentication' },
  BOPLA: { id: 'API3:2023', title: 'Broken Object Property Level Authorization' },
  URC: { id: 'API4:2023', title: 'Unrestricted Resource Consumption' },
  BFLA: { id: 'API5:2023', title: 'Broken Function Level Authorization' },
  UABF: { id: 'API6:2023', title: 'Unrestricted Access to Sensitive Business Flows' },
  SSRF: { id: 'API7:2023', title: 'Server Side Request Forgery' },
  SEC_MISC: { id: 'API8:2023', title: 'Security Misconfiguration' },
  IIM: { id: 'API9:2023', title: 'Improper Inventory Management' },
  UCAPI: { id: 'API10:2023', title: 'Unsafe Consumption of APIs' },
};

export const SEVERITIES = ['high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const CONFIDENCES = ['high', 'medium', 'low'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

/**
 * Triage of a finding (issue 17): open, or set aside as a false positive or an accepted risk (which
 * may expire). A set-aside finding stays listed but leaves the score, the counts and CI's --fail-on.
 */
export const TRIAGE_STATES = ['open', 'false_positive', 'accepted_risk'] as const;
export type TriageState = (typeof TRIAGE_STATES)[number];
/**
 * Every state a triage mark can hold: the hand-set ones, and `fixed`, which only "Close as fixed" sets
 * (after a re-test did not reproduce the finding; issue 29). A fixed finding leaves the counts like a
 * set-aside one, but a later scan that finds it again opens the mark again (docs/decisions.md).
 */
export const TRIAGE_MARK_STATES = [...TRIAGE_STATES, 'fixed'] as const;
export type TriageMarkState = (typeof TRIAGE_MARK_STATES)[number];

/** Re-test of one finding (issue 29, item 3): its check on its operation, again, with its scan's identities. */
export const RETEST_OUTCOMES = ['reproduced', 'not_reproduced', 'failed'] as const;
export type RetestOutcome = (typeof RETEST_OUTCOMES)[number];
export const RETEST_LIMITS = {
  /** A re-test runs one check on one operation: past this it stops, failed with the reason. */
  maxDurationMs: 120_000,
  /** The requests a not-reproduced re-test lists as what it sent (the last ones). */
  sentListed: 40,
  /** Re-tests listed in a finding's history (the newest). */
  history: 50,
} as const;
/** The triage export (UI) that `portcullis scan --baseline` reads. */
export const TRIAGE_EXPORT_FORMAT = 'portcullis-triage';
export const TRIAGE_EXPORT_VERSION = 1;

/** "Critical" on the dashboard: a finding whose CVSS score is at least this (DESIGN.md section 6). */
export const CRITICAL_CVSS = 9.0;

/** The one scan profile. The spec gives two readings of its value; both name the same profile. */
export const SCAN_PROFILE_OWASP = 'OWASP_API_10';
export const SCAN_PROFILE_ALIASES = ['OWASP_API_10', 'owasp'] as const;
export type ScanProfileValue = (typeof SCAN_PROFILE_ALIASES)[number];
export const SCAN_PROFILES = [{ value: SCAN_PROFILE_OWASP, label: 'Default OWASP API Top 10 Scan' }] as const;

/** A scan's seed (the source of its probe values and choices) is a whole number from 0 to this. */
export const SCAN_SEED_MAX = 4_294_967_295;

export const SCAN_STATUSES = ['created', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

export const SHARE_PERMISSIONS = ['read', 'manage'] as const;
export type SharePermission = (typeof SHARE_PERMISSIONS)[number];
export const SHARE_PERMISSION_LABELS: Record<SharePermission, string> = { read: 'View', manage: 'Manage' };

export const API_PERMISSIONS = ['owner', 'manage', 'read'] as const;
export type ApiPermission = (typeof API_PERMISSIONS)[number];

export const PDF_REPORT_TYPES = ['executive', 'technical'] as const;
export const EXPORT_REPORT_TYPES = ['json', 'sarif', 'html', 'junit'] as const;
export const REPORT_TYPES = [...PDF_REPORT_TYPES, ...EXPORT_REPORT_TYPES] as const;
export type PdfReportType = (typeof PDF_REPORT_TYPES)[number];
export type ReportType = (typeof REPORT_TYPES)[number];

export const EMAIL_FREQUENCIES = ['daily', 'weekly', 'monthly', 'never'] as const;
export type EmailFrequency = (typeof EMAIL_FREQUENCIES)[number];

export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** Import file extensions accepted by the client: the spec's .json, .yaml, .yml, .har (HAR recordings), and GraphQL SDL (.graphql, .graphqls). */
export const IMPORT_EXTENSIONS = ['.json', '.yaml', '.yml', '.har', '.graphql', '.graphqls'] as const;
/** Largest accepted import file. */
export const IMPORT_MAX_BYTES = 25 * 1024 * 1024;

/** Default timezone of Settings and the fallback of timestamp formatting. */
export const DEFAULT_TIMEZONE = 'UTC+02:00';
/** The ten timezone choices of Settings. */
export const TIMEZONES = [
  { value: 'UTC-12:00', label: 'Baker Island (UTC-12:00)' },
  { value: 'UTC-08:00', label: 'Los Angeles (UTC-08:00)' },
  { value: 'UTC-05:00', label: 'New York (UTC-05:00)' },
  { value: 'UTC+00:00', label: 'London (UTC+00:00)' },
  { value: 'UTC+01:00', label: 'Berlin (UTC+01:00)' },
  { value: 'UTC+02:00', label: 'Johannesburg (UTC+02:00)' },
  { value: 'UTC+03:00', label: 'Moscow (UTC+03:00)' },
  { value: 'UTC+08:00', label: 'Beijing (UTC+08:00)' },
  { value: 'UTC+09:00', label: 'Tokyo (UTC+09:00)' },
  { value: 'UTC+10:00', label: 'Sydney (UTC+10:00)' },
] as const;

/** Session timeout choices in minutes (stored as strings, spec default '30'). */
export const SESSION_TIMEOUT_CHOICES = ['15', '30', '60', '120', '240', '480'] as const;

export interface NotificationPreferences {
  scanCompleted: boolean;
  criticalFindings: boolean;
  weeklyReport: boolean;
  productUpdates: boolean;
  emailDigest: boolean;
  smsAlerts: boolean;
}
export interface SecurityPreferences {
  twoFactorAuth: boolean;
  sessionTimeout: string;
  loginNotifications: boolean;
}
export interface GeneralPreferences {
  theme: Theme;
  defaultScanProfile: string;
  autoSaveReports: boolean;
  emailFrequency: EmailFrequency;
}
export interface Preferences {
  notifications: NotificationPreferences;
  security: SecurityPreferences;
  preferences: GeneralPreferences;
}

/** Defaults of spec section 9. */
export const DEFAULT_PREFERENCES: Preferences = {
  notifications: {
    scanCompleted: true,
    criticalFindings: true,
    weeklyReport: false,
    productUpdates: true,
    emailDigest: true,
    smsAlerts: false,
  },
  security: { twoFactorAuth: false, sessionTimeout: '30', loginNotifications: true },
  preferences: { theme: 'auto', defaultScanProfile: 'owasp', autoSaveReports: true, emailFrequency: 'weekly' },
};

/** Stored or received preferences merged over the defaults, so fields added later get their default. */
export function mergePreferences(stored: Partial<Preferences> | null | undefined): Preferences {
  return {
    notifications: { ...DEFAULT_PREFERENCES.notifications, ...stored?.notifications },
    security: { ...DEFAULT_PREFERENCES.security, ...stored?.security },
    preferences: { ...DEFAULT_PREFERENCES.preferences, ...stored?.preferences },
  };
}

/** An extended profile with nothing filled in (spec section 9). */
export const EMPTY_EXTENDED_PROFILE: ExtendedProfile = {
  phone: '',
  company: '',
  position: '',
  timezone: '',
  avatar_url: '',
  bio: '',
  website_url: '',
  location: '',
};

/** Local storage keys of the renderer. */
export const STORAGE_KEYS = { authToken: 'authToken', userId: 'userId', darkMode: 'darkMode', serverUrl: 'teamServerUrl' } as const;

/** Landing-page figures shown when /api/stats/platform fails. */
export const LANDING_FALLBACK_STATS = { vulnerabilitiesFound: '10,000+', apisSecured: '500+', scansToday: '1,200+' } as const;

/** Subject tags of the contact page's mailto links. */
export const CONTACT_TAGS = [
  'SUPPORT',
  'TECHNICAL',
  'SECURITY',
  'FEATURE',
  'BUSINESS',
  'LEGAL',
  'GENERAL',
  'URGENT',
  'FEEDBACK',
] as const;

/** Constants of the identity-provider client (spec section 9). */
export const IDENTITY_PROVIDER = {
  refreshBackoffStartMs: 200,
  keySetCacheMs: 10 * 60 * 1000,
  sessionExpiryMarginS: 90,
  realtimeHeartbeatMs: 25_000,
} as const;

/** Greeting hours: morning before 12, afternoon before 18, otherwise evening. */
export const GREETING_HOURS = { afternoonFrom: 12, eveningFrom: 18 } as const;

/** Documentation text only; not enforced (spec section 1). */
export const FREE_PLAN_API_LIMIT = 5;

/** Where the legal pages, the contact page and the privacy mail button send email. */
export const SUPPORT_EMAIL = 'support@portcullis.dev';

/** "Last updated" of the security statement and the terms (spec section 2), also used by the privacy policy. */
export const LEGAL_LAST_UPDATED = 'September 27, 2025';
