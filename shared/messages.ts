// Every user-visible text of the product spec (sections 4, 5 and 8), verbatim, plus the few server
// texts the spec leaves open. Screens and the server both read them from here.

export const SIGNUP_MESSAGES = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email',
  usernameRequired: 'Username is required',
  usernameTooShort: 'Username too short',
  passwordRequired: 'Password required',
  passwordTooShort: 'Password too short',
  passwordsMustMatch: 'Passwords must match',
  termsRequired: 'Please agree to terms',
  usernameHint: 'At least 3 characters',
  passwordHint: 'At least 8 characters',
  success: 'Account created successfully! Redirecting to dashboard...',
  autoLoginFailed: 'Signup succeeded but auto-login failed. Please log in manually.',
  failed: 'Signup failed',
  unexpected: 'Unexpected error. Try again.',
} as const;

export const LOGIN_MESSAGES = {
  bothRequired: 'Please enter both identifier and password',
  success: 'Login successful! Redirecting to dashboard...',
  failed: 'Login failed',
  unexpected: 'An unexpected error occurred. Please try again.',
  /** The server refused a sign-in as busy (503, Retry-After) and the page tries again by itself. */
  busyRetrying: 'Many people are signing in right now. Still signing you in: no need to press Sign In again.',
  notAuthenticated: 'Not authenticated',
  logoutConfirm: 'Are you sure you want to logout?',
} as const;

export const PASSWORD_CHANGE_MESSAGES = {
  currentRequired: 'Current password is required.',
  newRequired: 'New password is required.',
  /** The spec names the rule (at least 8 characters) but not its text. */
  tooShort: 'Password must be at least 8 characters long.',
  lowercase: 'Password must contain at least one lowercase letter.',
  uppercase: 'Password must contain at least one uppercase letter.',
  number: 'Password must contain at least one number.',
  confirmMismatch: 'Password confirmation does not match.',
  mustDiffer: 'New password must be different from current password.',
  formNote: 'At least 8 characters with uppercase, lowercase and number.',
  success: 'Password updated successfully!',
  failed: 'Password update failed',
  currentIncorrect: 'Current password is incorrect.',
  failedGeneric: 'Failed to update password.',
} as const;

export const FORGOT_MESSAGES = {
  generic:
    'If that account exists, we sent a reset link. If you cannot find the email, make sure to check your spam folder.',
  network: 'Something went wrong. Try again.',
} as const;

export const RESET_MESSAGES = {
  noToken: 'Open this page via the link from your email (or server console).',
  /** The spec names the rule (minimum 8) but not its text. */
  tooShort: 'Password must be at least 8 characters.',
  mismatch: 'Passwords do not match.',
  missingToken: 'Missing or invalid token.',
  failed: 'Reset failed. Link may be invalid or expired.',
  network: 'Network error. Try again.',
  success: 'Password reset. You can log in now.',
} as const;

export const SOCIAL_MESSAGES = {
  signupCancelled: 'You cancelled the Google sign-up process.',
  loginCancelled: 'You cancelled the Google sign-in process.',
  signupInvalidRequest: 'Invalid Google sign-up request. Please try again.',
  loginInvalidRequest: 'Invalid Google sign-in request. Please try again.',
  signupFailed: 'Google sign-up failed. Please try again.',
  loginFailed: 'Google sign-in failed. Please try again.',
  notConfigured: 'Google login not configured. Please check environment variables.',
  initiateFailed: 'Failed to initiate Google login',
  signupStartFailed: 'Google signup failed. Please try again.',
  loginStartFailed: 'Google login failed. Please try again.',
  signupFallbackHint: '...or use regular signup.',
  loginFallbackHint: '...or use regular login.',
  backendFailed: 'Google login failed',
} as const;

export const SETTINGS_MESSAGES = {
  firstNameRequired: 'First name is required',
  firstNameTooShort: 'First name must be at least 2 characters',
  firstNameTooLong: 'First name must be less than 50 characters',
  lastNameRequired: 'Last name is required',
  lastNameTooShort: 'Last name must be at least 2 characters',
  lastNameTooLong: 'Last name must be less than 50 characters',
  usernameTooShort: 'Username must be at least 3 characters',
  usernameTooLong: 'Username must be less than 30 characters',
  usernameChars: 'Username can only contain letters, numbers, underscores, and dashes',
  phoneInvalid: 'Please enter a valid phone number',
  websiteInvalid: 'Website URL must start with http:// or https://',
  bioTooLong: 'Bio must be less than 500 characters',
  fixErrors: 'Please fix the validation errors above.',
  extendedPartial: 'Profile updated but some extended fields have errors.',
  emailReadOnly: 'Email changes require verification - contact support',
  updating: 'Updating...',
  saving: 'Saving...',
  timeout: 'Request timeout. Please check your connection and try again.',
  sessionExpired: 'Session expired. Please log in again.',
  forbidden: 'You do not have permission to perform this action.',
  usernameTaken: 'Username already exists. Please choose a different username.',
  serverError: 'Server error. Please try again later.',
  network: 'Network error. Please check your connection.',
  loadFailed: 'Failed to load user data. Some settings may not be available.',
  tokenMissing: 'Authentication token not found. Please log in again.',
  updateFailed: 'Update failed',
  refreshFailed: 'Failed to refresh profile',
  preferencesLoadFailed: 'Failed to load preferences',
  preferencesUpdateFailed: 'Failed to update preferences',
} as const;

export const DASHBOARD_MESSAGES = {
  loadFailed: (reason: string) => `Could not load dashboard data: ${reason}`,
  noVulnerabilities: 'No vulnerabilities recorded yet.',
  noRecentScans: 'No recent scan activity. Run a scan to get started!',
  fetchApisFailed: 'Failed to fetch APIs.',
  userIdRequired: 'User ID is required.',
  loadFailedGeneric: 'Failed to load dashboard data',
} as const;

/** Fallbacks shown when a server failure carries no message (spec section 8). */
export const FALLBACK_MESSAGES = {
  fetchApis: 'Failed to fetch APIs.',
  import: 'Import failed',
  deleteApi: 'Failed to delete API',
  updateApi: 'Failed to update API details',
  fetchEndpoints: 'Failed to fetch endpoints',
  createScan: 'Failed to create scan',
  startScan: 'Failed to start scan',
  pollScan: 'Polling for scan results failed',
  fetchScanList: 'Failed to fetch scan list.',
  fetchSchedule: 'Failed to fetch schedule',
  saveSchedule: 'Failed to save schedule',
  deleteSchedule: 'Failed to delete schedule',
  share: 'Failed to share API',
  fetchShares: 'Failed to fetch shared users',
  revoke: 'Failed to revoke access',
  leaveShare: 'Failed to leave share',
  downloadReport: 'Failed to download report.',
  fetchEnvironment: 'Failed to fetch environment settings.',
} as const;

export const API_MESSAGES = {
  fetchApisError: (reason: string) => `Error fetching APIs: ${reason}`,
  createScanError: (reason: string) => `Could not create scan: ${reason}`,
  fetchReportError: (reason: string) => `Error fetching report: ${reason}`,
  downloadReportError: (reason: string) => `Error downloading report: ${reason}`,
  shareError: (reason: string) => `Error sharing API: ${reason}`,
  revokeError: (reason: string) => `Error revoking access: ${reason}`,
  fetchSharesError: (reason: string) => `Error fetching shares: ${reason}`,
  flagError: (reason: string) => `Failed to update flag: ${reason}`,
  allFlagsError: (reason: string) => `Failed to update all flags: ${reason}`,
  imported: (file: string) => `API from "${file}" imported successfully.`,
  updated: 'API updated successfully',
  deleted: (name: string) => `API "${name}" deleted successfully.`,
  scheduleDisabled: 'Schedule disabled successfully.',
  accessRevoked: 'Access revoked successfully.',
  leftShare: 'Successfully removed from API.',
  reportDownloaded: 'Report downloaded successfully!',
  allSkipped: 'All endpoints have been marked to skip.',
  confirmDelete: (name: string) =>
    `Are you sure you want to permanently delete "${name}"? This action cannot be undone.`,
  confirmRevoke: (name: string) => `Are you sure you want to revoke access for ${name}?`,
  confirmLeave: (apiName: string) =>
    `Are you sure you want to leave "${apiName}"? You will lose access to this API. This action cannot be undone.`,
  confirmReset: 'Are you sure you want to reset your changes?',
  noEndpoints: 'No endpoints found for this API.',
  noPastScans: 'No past scans found.',
  noEndpointsMatch: 'No endpoints match your search.',
  notShared: 'Not shared with anyone yet.',
  noApisMatch: 'No APIs Match Your Criteria',
  selectFile: 'Please select a file.',
  unsupportedFile: 'Please choose a .json, .yaml, .yml, .har, .graphql or .graphqls file.',
  enterEmail: 'Please enter an email address.',
  primaryKeyRequired: 'A primary API key is required.',
  sharedBy: (owner: string) => `Shared by ${owner}`,
} as const;

export const SCAN_MESSAGES = {
  finished: (name: string) => `Scan for "${name}" has finished.`,
  pollingError: (reason: string) => `Error polling scan results: ${reason}`,
  startFailed: (reason: string) => `Failed to start scan: ${reason}`,
  localDisabled: 'Scans for local APIs are disabled in this environment',
  anotherInProgress: 'Another scan is in progress. Please wait.',
  startNew: 'Start a new scan',
  /** Not in the spec: a scan stopped with Cancel. */
  cancelled: (name: string) => `Scan for "${name}" was cancelled.`,
  cancelFailed: 'Failed to cancel scan',
  /** Not in the spec: a read (View) share cannot start scans. */
  readOnlyScan: 'View access: ask the owner for Manage access to run scans.',
  demoHint: 'Tip: for a quick demo scan, skip all endpoints, then un-skip at most 5.',
} as const;

/** Configure Scan's Identities step and the report's identity table (not in the spec). */
export const IDENTITY_MESSAGES = {
  useKeys: 'API keys',
  useIdentities: 'Identities (log in, OAuth2, cookies)',
  crossUserHint: 'Cross-user tests (BOLA, BOPLA) need two identities of the same role. Add a second user, or let the scan create its own test users.',
  crossUserSignupHint: 'One user identity: the scan creates a second user itself for the cross-user tests.',
  signupLabel: 'Let the scan create its own test users',
  signupFound: (operation: string) => `Sign-up operation found: ${operation}.`,
  signupMissing: 'No sign-up operation was found in the API, so the scan cannot register users: give two user identities for the cross-user tests.',
  signupOff: (operation: string) => `Off: the scan registers nobody and sends no request to ${operation} or any other operation that registers users.`,
  declaredPlacement: (text: string) => `As the API declares: ${text}`,
  fillIn: (name: string) => `\${env:${name}} is a placeholder only the command-line scanner fills: type the value here.`,
  fillInBlock: (names: string[]) => `Replace the placeholders marked "fill in" (${names.join(', ')}): the server does not read environment variables.`,
  fixErrors: 'Fix the fields marked below.',
  testing: 'Testing...',
  testWorks: 'Works',
  testFailed: 'Does not work',
  verifiedAs: (who: string) => `verified as ${who}`,
  imported: (count: number) => `Imported ${count} identit${count === 1 ? 'y' : 'ies'}.`,
  importEmpty: 'Choose a YAML file or paste the configuration.',
  exportInvalid: 'Fix the identities before exporting: the fields marked below.',
  copied: 'Copied to the clipboard.',
  copyFailed: 'Could not copy: select the text and copy it instead.',
  /** An expired static JWT, refused at Next and at Start (issue 31); `when` is formatted in the user's zone. */
  tokenExpired: (name: string, when: string, zone: string) => `Identity "${name}": its token expired on ${when} (${zone}). Paste a fresh token.`,
  /** A secret field a saved setup (or the failed scan) keeps: its placeholder. */
  keptPlaceholder: 'Kept on the server: type to replace',
  /** A kept secret the server no longer has. */
  keptGone: 'This secret is no longer kept: type it again.',
  answerQuote: (request: string, status: number | null) => (status === null ? `${request} got no answer` : `Answer to ${request} (${status}), secrets redacted`),
  useCandidate: (pointer: string) => `Use ${pointer}`,
  editField: 'Edit the identity',
  setupsTitle: 'Identity setups that worked',
  setupsLead: 'Each one signed in for a scan of this API. Pick one to fill in the identities: its secrets stay on the server.',
  setupUse: 'Use',
  setupForget: 'Forget',
  setupLoaded: (when: string) => `Filled in from the setup that worked on ${when}. Kept secrets stay on the server; type over a field to change it.`,
  setupGone: 'That setup is no longer kept.',
  editAndRetry: 'Edit identities and retry',
  retryAsIs: 'Retry as it was',
  retryWith: 'Retry with these identities',
  retryTitle: 'Edit identities and retry',
  loginFailedAt: (identity: string) => `Identity "${identity}" could not log in.`,
} as const;

export const CARD_STATUS = { scanning: 'Scanning...', completed: 'Completed', ready: 'Ready' } as const;

export const UNDER_CONSTRUCTION = { title: 'Page Under Construction' } as const;

/** Server texts the spec leaves open (DESIGN.md section 2). */
export const SERVER_MESSAGES = {
  notAuthenticated: LOGIN_MESSAGES.notAuthenticated,
  sessionExpired: SETTINGS_MESSAGES.sessionExpired,
  forbidden: SETTINGS_MESSAGES.forbidden,
  notFound: 'Not found',
  internal: 'Something went wrong on our side. Please try again.',
  invalidJson: 'The request body must be valid JSON.',
  bodyTooLarge: 'The request body is too large.',
  importTooLarge: 'The file is too large: the limit is 25 MB.',
  /** An import is read in a worker thread with a memory limit and a deadline (electron/importer/import-runner.ts). */
  importOutOfMemory: (mb: number) =>
    `The file is too large or complex to import: reading it needed more than ${mb} MB of memory. Import a smaller part of it (fewer operations or types).`,
  importTimedOut: (seconds: number) =>
    `The file is too large or complex to import: reading it did not finish within ${seconds.toLocaleString('en-US', { maximumFractionDigits: 1 })} s. Import a smaller part of it (fewer operations or types).`,
  importsBusy: 'Too many imports are being read right now. Please try again in a minute.',
  validationFailed: 'Please fix the validation errors above.',
  invalidCredentials: 'Invalid username/email or password.',
  tooManyAttempts: 'Too many failed attempts. Please wait a few minutes and try again.',
  tooManySignups: 'Too many sign-ups from this address. Please wait a few minutes and try again.',
  /** 503 while too many password checks are in flight: the spec's 5xx text. */
  busy: SETTINGS_MESSAGES.serverError,
  emailTaken: 'An account with this email already exists.',
  usernameTaken: SETTINGS_MESSAGES.usernameTaken,
  signupOk: 'Account created successfully',
  loginOk: 'Login successful',
  logoutOk: 'Logged out',
  profileOk: 'Profile loaded',
  profileUpdated: 'Profile updated successfully',
  preferencesUpdated: 'Preferences updated successfully',
  extendedUpdated: 'Extended profile updated successfully',
  ok: 'OK',
  databaseReachable: 'The database is reachable.',
  databaseUnreachable: 'This node cannot reach its database.',
  /** 503 while the database is down (a request met the outage); Retry-After says when to try again. */
  databaseUnavailable: 'The server cannot reach its database right now. Please try again in a few seconds.',
  /** 503 while every database connection of the node is taken. */
  databaseBusy: 'The server is busy right now. Please try again in a few seconds.',
} as const;

export const LOADING_TEXT = 'Loading...';

/** Social sign-in refusals by the server (the ID token and the OpenID Connect round trip). */
export const OIDC_MESSAGES = {
  redirectNotAllowed: 'This sign-in return address is not allowed.',
  flowExpired: 'This sign-in has expired or was already used. Please try again.',
  exchangeFailed: 'The identity provider did not confirm the sign-in. Please try again.',
  tokenMissing: 'The sign-in token is missing.',
  badSignature: 'The sign-in token could not be verified (bad signature).',
  wrongIssuer: 'The sign-in token comes from an identity provider this server does not trust.',
  wrongAudience: 'The sign-in token was issued for another application.',
  expired: 'The sign-in token has expired. Please sign in again.',
  nonceReplayed: 'This sign-in was already used or has expired. Please sign in again.',
  emailMissing: 'The identity provider did not share an email address.',
  emailUnverified: 'The email address of this account is not verified by the identity provider.',
  emailLinkRefused: 'An account with this email already exists. Sign in with your password.',
  providerUnavailable: 'The identity provider cannot be reached right now. Please try again later.',
} as const;

/** Sync mode: Settings → Team server, and the banner while connected. */
export const TEAM_SERVER_MESSAGES = {
  urlRequired: "Enter the team server's address, for example https://portcullis.example.com.",
  urlInvalid: 'That is not a web address. Use https://… (or http:// for this computer).',
  httpsRequired: 'Use https:// — plain http:// is allowed only for this computer (localhost or 127.0.0.1).',
  originOnly: "Enter only the server's address: no path, query or user name.",
  unreachable: (origin: string) => `Could not reach ${origin}. Check the address and that the server is running.`,
  notPortcullis: (origin: string) => `${origin} did not answer like a Portcullis team server.`,
  connected: (host: string) => `Connected to ${host}. Sign in with your account on that server.`,
  disconnected: 'Disconnected. Portcullis uses the data on this computer again.',
  connecting: 'Connecting...',
} as const;

/** Re-test of a finding (issue 29, item 3): POST /api/findings/retest, /api/findings/close-fixed, `portcullis retest`. */
export const RETEST_MESSAGES = {
  reproduced: 'Still present: the re-test reproduced the finding.',
  notReproduced: 'Not reproduced: the re-test did not find it again.',
  failed: (reason: string) => `The re-test could not run: ${reason}`,
  busyScan: 'A scan of this API is running: re-test when it has finished.',
  busyRetest: 'Another re-test of this API is running: wait for it to finish, then re-test.',
  keysGone:
    'The keys of the scan that found this finding are no longer stored, and you have no scan of this API that keeps its keys: run a scan of the API again, then re-test.',
  operationGone: (operation: string) =>
    `${operation} is no longer scanned (it was removed from the API or marked SKIP): remove the SKIP flag or scan the API again instead of re-testing.`,
  checkGone: (checkId: string) => `The check ${checkId} no longer exists in this version of Portcullis: scan the API again instead of re-testing.`,
  notApplicable: (checkId: string, operation: string) =>
    `The check ${checkId} no longer applies to ${operation} (its flags or its identities changed): nothing was sent. Scan the API again to see where it stands.`,
  notExercised: (operation: string, detail: string | null) =>
    `The re-test could not exercise ${operation}${detail ? ` (${detail})` : ''}, so it cannot tell whether the finding is gone. See the scan's coverage for why, fix that, and re-test.`,
  closedFixed: 'Closed as fixed',
  closeNeedsRetest: 'Only a finding whose latest re-test did not reproduce it can be closed as fixed: re-test it first.',
  fixedReason: (at: string, by: string | null) => `Not reproduced by the re-test of ${at}${by ? ` (run by ${by})` : ''}.`,
  reopenedReason: 'Found again by a later scan after it was closed as fixed.',
  /** The scan page's words for an outcome: "Still present — re-tested <time>". */
  outcomeLabel: { reproduced: 'Still present', not_reproduced: 'Not reproduced', failed: 'Could not re-test' },
  never: 'Not re-tested yet: Re-test runs this finding’s check on its operation again, with the scan’s identities.',
  running: 'Re-testing…',
  viewOnly: 'You have view access to this API: only its owner and people with Manage access can re-test findings.',
} as const;

/** Triage of findings (issue 17): POST /api/findings/triage. */
/** The scan page's detail pane, which reads the whole finding when it is opened. */
export const FINDING_MESSAGES = {
  loading: 'Loading the evidence…',
  loadFallback: 'Could not load this finding: check the connection and try again.',
  notFound: 'This scan has no such finding: it may belong to another scan.',
} as const;

export const TRIAGE_MESSAGES = {
  saved: 'Triage saved',
  findingNotFound: 'Finding not found.',
  stateInvalid: 'state must be open, false_positive or accepted_risk.',
  reasonTooLong: 'The reason is too long (at most 1000 characters).',
  expiryOnlyForAcceptedRisk: 'An expiry date applies to accepted risks only.',
  expiryInvalid: 'The expiry date must be a date (YYYY-MM-DD) or a time (ISO 8601) in the future, at most 5 years ahead.',
} as const;
