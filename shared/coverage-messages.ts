// The scan page's coverage texts (issue 26): the Coverage tab and the compare view's lost coverage.
// The screens and the browser tests read them from here.

export const COVERAGE_MESSAGES = {
  tab: 'Coverage',
  running: 'Coverage is shown when the scan ends: which operations answered each identity, and which checks could not run, and why.',
  predates: 'This scan predates coverage: it did not record what it reached. Run the scan again to see which operations answered and which checks ran.',
  noneKept: 'This scan kept no coverage: it stopped before it tested any operation. Retry it once the cause above is fixed.',
  loadFailed: (reason: string) => `Could not load the coverage: ${reason.replace(/\.+$/, '')}. Try again.`,
  /** The reason when the server gave none. */
  loadFallback: 'the server gave no reason',
  /** Under the header line of a failed or cancelled scan. */
  stopped: 'The scan stopped early: the operations and checks it did not get to count neither as reached nor as skipped.',
  noOperations: 'The scan had no operations to test: every endpoint was skipped.',
  noRows: 'No operations match these filters.',
  notSent: 'not sent',
  reasonsTitle: 'Why checks did not run',
  reasonsFix: 'What to do:',
  lostTitle: 'Reached before, not now',
  lostHint:
    'Operations that answered a 2xx to some identity in the previous scan and to none in this one. A login that stopped working or a changed API description shows up here, not as fixed findings.',
  lostNone: 'None: this scan reached every operation the previous scan reached.',
} as const;
