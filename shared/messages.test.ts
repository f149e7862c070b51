// Pins the spec's exact texts and constants: a changed character here is a changed product.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PREFERENCES,
  DEFAULT_TIMEZONE,
  DELAYS,
  FLAGS,
  LANDING_FALLBACK_STATS,
  LIMITS,
  PAGE_SIZES,
  SCAN_PROFILES,
  SCHEDULE_FREQUENCIES,
  SETTINGS_TIMEOUTS,
  SHARE_PERMISSION_LABELS,
  TIMEZONES,
} from './constants';
import {
  API_MESSAGES,
  CARD_STATUS,
  DASHBOARD_MESSAGES,
  FALLBACK_MESSAGES,
  FORGOT_MESSAGES,
  LOGIN_MESSAGES,
  PASSWORD_CHANGE_MESSAGES,
  RESET_MESSAGES,
  SCAN_MESSAGES,
  SETTINGS_MESSAGES,
  SIGNUP_MESSAGES,
  SOCIAL_MESSAGES,
} from './messages';

describe('spec section 4 and 8 texts', () => {
  it('sign-up and login', () => {
    expect(SIGNUP_MESSAGES.success).toBe('Account created successfully! Redirecting to dashboard...');
    expect(SIGNUP_MESSAGES.autoLoginFailed).toBe('Signup succeeded but auto-login failed. Please log in manually.');
    expect(SIGNUP_MESSAGES.failed).toBe('Signup failed');
    expect(SIGNUP_MESSAGES.unexpected).toBe('Unexpected error. Try again.');
    expect(SIGNUP_MESSAGES.usernameHint).toBe('At least 3 characters');
    expect(SIGNUP_MESSAGES.passwordHint).toBe('At least 8 characters');
    expect(LOGIN_MESSAGES.success).toBe('Login successful! Redirecting to dashboard...');
    expect(LOGIN_MESSAGES.failed).toBe('Login failed');
    expect(LOGIN_MESSAGES.unexpected).toBe('An unexpected error occurred. Please try again.');
    expect(LOGIN_MESSAGES.notAuthenticated).toBe('Not authenticated');
    expect(LOGIN_MESSAGES.logoutConfirm).toBe('Are you sure you want to logout?');
  });

  it('password, forgot and reset', () => {
    expect(PASSWORD_CHANGE_MESSAGES.success).toBe('Password updated successfully!');
    expect(PASSWORD_CHANGE_MESSAGES.failed).toBe('Password update failed');
    expect(PASSWORD_CHANGE_MESSAGES.currentIncorrect).toBe('Current password is incorrect.');
    expect(PASSWORD_CHANGE_MESSAGES.failedGeneric).toBe('Failed to update password.');
    expect(FORGOT_MESSAGES.generic).toBe(
      'If that account exists, we sent a reset link. If you cannot find the email, make sure to check your spam folder.',
    );
    expect(FORGOT_MESSAGES.network).toBe('Something went wrong. Try again.');
    expect(RESET_MESSAGES.noToken).toBe('Open this page via the link from your email (or server console).');
    expect(RESET_MESSAGES.failed).toBe('Reset failed. Link may be invalid or expired.');
    expect(RESET_MESSAGES.network).toBe('Network error. Try again.');
    expect(RESET_MESSAGES.success).toBe('Password reset. You can log in now.');
  });

  it('social sign-in', () => {
    expect(SOCIAL_MESSAGES.signupCancelled).toBe('You cancelled the Google sign-up process.');
    expect(SOCIAL_MESSAGES.loginCancelled).toBe('You cancelled the Google sign-in process.');
    expect(SOCIAL_MESSAGES.signupInvalidRequest).toBe('Invalid Google sign-up request. Please try again.');
    expect(SOCIAL_MESSAGES.loginInvalidRequest).toBe('Invalid Google sign-in request. Please try again.');
    expect(SOCIAL_MESSAGES.signupFailed).toBe('Google sign-up failed. Please try again.');
    expect(SOCIAL_MESSAGES.loginFailed).toBe('Google sign-in failed. Please try again.');
    expect(SOCIAL_MESSAGES.notConfigured).toBe('Google login not configured. Please check environment variables.');
    expect(SOCIAL_MESSAGES.initiateFailed).toBe('Failed to initiate Google login');
    expect(SOCIAL_MESSAGES.backendFailed).toBe('Google login failed');
  });

  it('settings requests', () => {
    expect(SETTINGS_MESSAGES.timeout).toBe('Request timeout. Please check your connection and try again.');
    expect(SETTINGS_MESSAGES.sessionExpired).toBe('Session expired. Please log in again.');
    expect(SETTINGS_MESSAGES.forbidden).toBe('You do not have permission to perform this action.');
    expect(SETTINGS_MESSAGES.usernameTaken).toBe('Username already exists. Please choose a different username.');
    expect(SETTINGS_MESSAGES.serverError).toBe('Server error. Please try again later.');
    expect(SETTINGS_MESSAGES.network).toBe('Network error. Please check your connection.');
    expect(SETTINGS_MESSAGES.loadFailed).toBe('Failed to load user data. Some settings may not be available.');
    expect(SETTINGS_MESSAGES.tokenMissing).toBe('Authentication token not found. Please log in again.');
    expect(SETTINGS_MESSAGES.emailReadOnly).toBe('Email changes require verification - contact support');
    expect(SETTINGS_MESSAGES.fixErrors).toBe('Please fix the validation errors above.');
    expect(SETTINGS_MESSAGES.extendedPartial).toBe('Profile updated but some extended fields have errors.');
  });

  it('dashboard and API management', () => {
    expect(DASHBOARD_MESSAGES.loadFailed('timeout')).toBe('Could not load dashboard data: timeout');
    expect(DASHBOARD_MESSAGES.noVulnerabilities).toBe('No vulnerabilities recorded yet.');
    expect(DASHBOARD_MESSAGES.noRecentScans).toBe('No recent scan activity. Run a scan to get started!');
    expect(API_MESSAGES.imported('petstore.yaml')).toBe('API from "petstore.yaml" imported successfully.');
    expect(API_MESSAGES.updated).toBe('API updated successfully');
    expect(API_MESSAGES.deleted('Pets')).toBe('API "Pets" deleted successfully.');
    expect(API_MESSAGES.scheduleDisabled).toBe('Schedule disabled successfully.');
    expect(API_MESSAGES.accessRevoked).toBe('Access revoked successfully.');
    expect(API_MESSAGES.leftShare).toBe('Successfully removed from API.');
    expect(API_MESSAGES.reportDownloaded).toBe('Report downloaded successfully!');
    expect(API_MESSAGES.allSkipped).toBe('All endpoints have been marked to skip.');
    expect(API_MESSAGES.confirmDelete('Pets')).toBe(
      'Are you sure you want to permanently delete "Pets"? This action cannot be undone.',
    );
    expect(API_MESSAGES.confirmLeave('Pets')).toMatch(/This action cannot be undone\.$/);
    expect(API_MESSAGES.noEndpoints).toBe('No endpoints found for this API.');
    expect(API_MESSAGES.noPastScans).toBe('No past scans found.');
    expect(API_MESSAGES.noEndpointsMatch).toBe('No endpoints match your search.');
    expect(API_MESSAGES.notShared).toBe('Not shared with anyone yet.');
    expect(API_MESSAGES.noApisMatch).toBe('No APIs Match Your Criteria');
    expect(API_MESSAGES.flagError('x')).toBe('Failed to update flag: x');
    expect(API_MESSAGES.allFlagsError('x')).toBe('Failed to update all flags: x');
    expect(API_MESSAGES.fetchApisError('x')).toBe('Error fetching APIs: x');
    expect(API_MESSAGES.createScanError('x')).toBe('Could not create scan: x');
    expect(API_MESSAGES.shareError('x')).toBe('Error sharing API: x');
    expect(FALLBACK_MESSAGES.downloadReport).toBe('Failed to download report.');
    expect(FALLBACK_MESSAGES.fetchEnvironment).toBe('Failed to fetch environment settings.');
    expect(SCAN_MESSAGES.finished('Pets')).toBe('Scan for "Pets" has finished.');
    expect(SCAN_MESSAGES.pollingError('x')).toBe('Error polling scan results: x');
    expect(SCAN_MESSAGES.startFailed('x')).toBe('Failed to start scan: x');
    expect(SCAN_MESSAGES.localDisabled).toBe('Scans for local APIs are disabled in this environment');
    expect(SCAN_MESSAGES.anotherInProgress).toBe('Another scan is in progress. Please wait.');
    expect(SCAN_MESSAGES.startNew).toBe('Start a new scan');
    expect(CARD_STATUS).toEqual({ scanning: 'Scanning...', completed: 'Completed', ready: 'Ready' });
  });
});

describe('spec section 9 constants', () => {
  it('delays, page sizes and limits', () => {
    expect(DELAYS).toMatchObject({
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
    });
    expect(PAGE_SIZES).toEqual({ flagsModal: 20 });
    expect(SETTINGS_TIMEOUTS).toEqual({ readMs: 10_000, writeMs: 15_000 });
    expect(LIMITS).toMatchObject({ signupUsernameMin: 3, passwordMin: 8, settingsUsernameMax: 30, nameMin: 2, nameMax: 50, bioMax: 500 });
  });

  it('lists and defaults', () => {
    expect(FLAGS).toEqual(['BOLA', 'BKEN_AUTH', 'BOPLA', 'URC', 'BFLA', 'UABF', 'SSRF', 'SEC_MISC', 'IIM', 'UCAPI', 'SKIP']);
    expect(SCAN_PROFILES).toEqual([{ value: 'OWASP_API_10', label: 'Default OWASP API Top 10 Scan' }]);
    expect(SCHEDULE_FREQUENCIES).toEqual(['daily', 'weekly', 'monthly']);
    expect(SHARE_PERMISSION_LABELS).toEqual({ read: 'View', manage: 'Manage' });
    expect(DEFAULT_TIMEZONE).toBe('UTC+02:00');
    expect(TIMEZONES).toHaveLength(10);
    expect(LANDING_FALLBACK_STATS).toEqual({ vulnerabilitiesFound: '10,000+', apisSecured: '500+', scansToday: '1,200+' });
    expect(DEFAULT_PREFERENCES).toEqual({
      notifications: { scanCompleted: true, criticalFindings: true, weeklyReport: false, productUpdates: true, emailDigest: true, smsAlerts: false },
      security: { twoFactorAuth: false, sessionTimeout: '30', loginNotifications: true },
      preferences: { theme: 'auto', defaultScanProfile: 'owasp', autoSaveReports: true, emailFrequency: 'weekly' },
    });
  });
});
