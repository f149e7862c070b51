// The documentation's words: guides (with difficulty; the read time is counted from the words, see
// reading-time.ts) and the FAQ, written for Portcullis as it works today (README.md, docs/scan-config.md,
// docs/decisions.md and docs/api.md hold the facts behind them).

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import {
  FREE_PLAN_API_LIMIT,
  IMPORT_EXTENSIONS,
  IMPORT_MAX_BYTES,
  PAGE_SIZES,
  PRODUCT_NAME,
  SCAN_PROFILES,
} from '../../../../shared/constants';
import { IDENTITY_MESSAGES, SCAN_MESSAGES } from '../../../../shared/messages';
import { readMinutes, textOf, wordCount } from './reading-time';

export type SectionId = 'getting-started' | 'advanced-features' | 'troubleshooting' | 'faq';
export type Difficulty = 'Beginner' | 'Intermediate' | 'Advanced';

export interface Guide {
  id: string;
  section: Exclude<SectionId, 'faq'>;
  title: string;
  summary: string;
  difficulty: Difficulty;
  body: () => ReactElement;
}

/** Minutes to read a guide's body at WORDS_PER_MINUTE, from the words it shows. */
export function guideReadMinutes(guide: Guide): number {
  return readMinutes(wordCount(textOf(guide.body())));
}

export const SECTIONS: { id: SectionId; title: string; lead: string }[] = [
  { id: 'getting-started', title: 'Getting Started', lead: 'From a specification file to your first report.' },
  { id: 'advanced-features', title: 'Advanced Features', lead: 'Identities, triage, coverage, per-endpoint checks, the CLI, schedules, sharing and the team server.' },
  { id: 'troubleshooting', title: 'Troubleshooting', lead: 'When an import or a scan does not do what you expected.' },
  { id: 'faq', title: 'FAQ', lead: 'Short answers to the questions we hear most.' },
];

const importLimitMb = Math.round(IMPORT_MAX_BYTES / (1024 * 1024));
const extensions = IMPORT_EXTENSIONS.join(', ');
const profileLabel = SCAN_PROFILES[0].label;

export const GUIDES: Guide[] = [
  {
    id: 'first-scan',
    section: 'getting-started',
    title: 'Import an API and run your first scan',
    summary: 'Import a specification, tell the scan who to be, pick the endpoints to test and start it.',
    difficulty: 'Beginner',
    body: () => (
      <>
        <p>
          You need a description of the API (OpenAPI, Swagger, Postman, a HAR recording or a GraphQL schema; or type its
          endpoints by hand) and a way to sign in as a user of it. Scan only APIs you own or are allowed to test: a scan
          sends real requests, including writes.
        </p>
        <h2>1. Import the API</h2>
        <ol>
          <li>
            Open <Link to="/manage-apis">API Management</Link> and choose <strong>Import API</strong>.
          </li>
          <li>Pick a {extensions} file and choose Import. The API appears as a card with its base URL and endpoint count.</li>
          <li>If the importer had to guess or skip something it lists warnings; read them before you scan.</li>
        </ol>
        <h2>2. Configure the scan</h2>
        <ol>
          <li>
            On the API&apos;s card choose <strong>New Scan</strong>. The profile is <em>{profileLabel}</em>.
          </li>
          <li>
            Choose how the scan signs in. <strong>{IDENTITY_MESSAGES.useKeys}</strong>: paste a user&apos;s key or token (a
            second user&apos;s key is optional but enables the cross-user checks).{' '}
            <strong>{IDENTITY_MESSAGES.useIdentities}</strong>: let the scan log in by itself as named users (see the
            identities guide).
          </li>
          <li>
            Leave <strong>Writes</strong> on <em>Only objects the scan creates</em> unless the API is a copy you can throw
            away.
          </li>
          <li>
            Choose <strong>Next: Configure Flags</strong>. Each endpoint carries the OWASP checks that apply to it; SKIP
            leaves an endpoint out entirely.
          </li>
        </ol>
        <h2>3. Start and follow it</h2>
        <ol>
          <li>
            Choose <strong>Start Scan</strong>. The card shows Scanning... and a progress bar. A running scan&apos;s page
            shows its progress live: the check it is on, the requests sent, the rate and the time left.
          </li>
          <li>
            When it ends a message says so, with a link to the scan&apos;s page, and the card shows the number of
            vulnerabilities found.
          </li>
          <li>
            The card&apos;s <strong>Latest scan</strong> opens its page any time; <strong>History</strong> lists every scan,
            and its <strong>View Report</strong> opens that scan&apos;s page.
          </li>
        </ol>
        <p className="muted">{SCAN_MESSAGES.demoHint}</p>
      </>
    ),
  },
  {
    id: 'import-formats',
    section: 'getting-started',
    title: 'What the importer reads',
    summary: 'Supported formats, how the base URL and endpoints are found, and which checks each endpoint gets.',
    difficulty: 'Beginner',
    body: () => (
      <>
        <p>
          The format is recognised from the content, not the file extension: OpenAPI 3.0 and 3.1, Swagger 2.0, Postman
          collections v2.0 and v2.1, HAR 1.2 recordings, and GraphQL schemas (SDL, or an introspection result in JSON).
          Files up to {importLimitMb} MB are accepted. A live GraphQL endpoint can also be imported by its URL (the
          GraphQL endpoint tab): the server introspects it, with a token when it needs one, which is never stored. Each
          query, mutation and subscription becomes an operation, listed by its name (<code>Query.product</code>) with its
          arguments&apos; GraphQL types.
        </p>
        <ul>
          <li>
            <strong>Name and base URL</strong> come from <code>info.title</code> and the first server (or{' '}
            <code>host</code> + <code>basePath</code>, or Postman&apos;s <code>baseUrl</code> variable). You can change
            both later with Manage → Edit Details.
          </li>
          <li>
            <strong>Endpoints</strong> keep their method, path, summary, parameters, request body and security
            requirements; the scanner uses them to build valid requests.
          </li>
          <li>
            <strong>References</strong> inside the file are resolved; references to other files or URLs are never
            fetched (a specification must not make the app read your disk or the network). They show up as warnings.
          </li>
          <li>
            <strong>Served by the API?</strong> Choose <em>From a URL</em> and give the address of its description (often
            its own <code>/openapi.json</code>): the server fetches it under the same rules as a scan and reads it like a file;
            a relative server URL in it is taken relative to that address.
          </li>
          <li>
            <strong>No specification?</strong> Choose <em>Type endpoints</em> in the import dialog and write one endpoint
            per line (<code>GET /users/{'{id}'}</code>), with the API&apos;s name and base URL.
          </li>
          <li>
            <strong>Default flags</strong>: id-like parameters get BOLA, secured or login routes BKEN_AUTH, bodies and
            objects BOPLA, collections and uploads URC, admin-like or destructive routes BFLA, business flows UABF,
            URL-like parameters SSRF and UCAPI; SEC_MISC and IIM apply to every endpoint.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'scan-page',
    section: 'getting-started',
    title: 'Read a scan on its page',
    summary: 'Findings by category and check, filters and search, the evidence and curl steps, compare and coverage.',
    difficulty: 'Beginner',
    body: () => (
      <>
        <p>
          Every scan has its own page. At the top: when it completed, its security score, how many findings it has and
          how many are set aside in triage. Below are three tabs: <strong>Findings</strong>, <strong>Coverage</strong>{' '}
          and <strong>Compare with previous scan</strong>.
        </p>
        <h2>The findings</h2>
        <ul>
          <li>
            The list is a tree: findings are grouped by OWASP API Top 10 category, then by the check that found them, one
            row per endpoint or operation, each with its severity and its trend (new, or recurring from the previous scan).
          </li>
          <li>
            <strong>Filters</strong> keep one severity, category, confidence, trend or triage state, each with its count;
            the search matches a finding&apos;s name, method, path or operation. Clear filters shows everything again.
          </li>
          <li>
            <strong>Keyboard</strong>: the up and down arrows move through the list, and <kbd>T</kbd> jumps to the selected
            finding&apos;s triage.
          </li>
        </ul>
        <h2>One finding</h2>
        <p>
          The detail pane shows the severity (the band of the CVSS 3.1 score: high 7.0 to 10, medium 4.0 to 6.9, low 0.1 to
          3.9, info 0; critical marks 9.0 or more), the CVSS vector, the CWE, the confidence, the description, the
          evidence (the requests and responses that prove it), the fix and references. Its curl steps reproduce the proof
          with a copy button; keys are never written in them but read from variables such as{' '}
          <code>$PORTCULLIS_KEY_1</code> or <code>$PORTCULLIS_ALICE_TOKEN</code>, listed above the commands. A proof
          that forges a token starts with the step that builds it from your key, so it still works days later.
        </p>
        <h2>Compare and downloads</h2>
        <ul>
          <li>
            <strong>Compare with previous scan</strong> lists the new and recurring findings, the previous scan&apos;s
            findings this one no longer sees, and the operations the previous scan reached that this one did not (so a
            broken login reads as lost coverage, not as fixed findings).
          </li>
          <li>
            <strong>Download traffic (HAR)</strong> saves the requests the scan sent, secrets redacted, for a proxy or a
            browser&apos;s network panel. <strong>Export triage</strong> saves the triage marks for the CLI.
          </li>
          <li>
            <strong>Reports</strong> has the executive and technical PDFs and the JSON, SARIF, JUnit and HTML exports.
          </li>
          <li>
            <strong>About this scan</strong> shows its problems first (a login or a check that failed, a budget that ran
            out, a request the scope guard refused), then who it spoke as, how long it ran, the checks it skipped and
            its other notes.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'reading-reports',
    section: 'getting-started',
    title: 'The security score and the reports',
    summary: 'How the score is counted, what skipped checks mean, and which download suits whom.',
    difficulty: 'Beginner',
    body: () => (
      <>
        <ul>
          <li>
            <strong>Security score</strong> runs from 0 to 100: 100 minus 25 for each critical finding (CVSS 9.0 or
            more), 15 per high, 7 per medium and 2 per low, never below 0. Findings set aside in triage do not count.
          </li>
          <li>
            A finding is only reported when a response proves it. Most checks send a baseline request, change one thing
            and compare the answers.
          </li>
          <li>
            <strong>Skipped checks</strong> say why a check did not run (for example no second user for the cross-user
            tests); the Coverage tab says it per operation.
          </li>
          <li>
            <strong>Downloads</strong>: the executive PDF (score, distribution, top risks) for stakeholders, the
            technical PDF (every finding with evidence and fixes, and an appendix of the findings set aside in triage)
            for engineers, SARIF for code-scanning tools (set-aside findings are marked suppressed), JUnit for CI test
            reports, JSON and a standalone HTML page.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'identities',
    section: 'advanced-features',
    title: 'Scan as several users: identities and login recipes',
    summary: 'Let the scan log in by itself as named users with roles, renew their tokens and register its own.',
    difficulty: 'Intermediate',
    body: () => (
      <>
        <p>
          Static keys expire and one key cannot show one user reaching another user&apos;s data. In Configure Scan choose{' '}
          <strong>{IDENTITY_MESSAGES.useIdentities}</strong> and describe who the scan speaks as; it obtains each
          credential itself and renews it when it expires.
        </p>
        <h2>Identities</h2>
        <ul>
          <li>
            <strong>Add identity</strong> (up to 8). Each has a name and a role: <em>user</em> (the first two users are
            compared for object-level access, BOLA and BOPLA), <em>privileged</em> (an administrator whose functions are
            tested) or <em>lower</em> (tried on the privileged functions, BFLA). Requests without any credential are always
            tried too.
          </li>
          <li>
            <strong>How the credential is obtained</strong>: a token; a login request (or several steps) with where the
            token is in the answer; an OAuth2 grant (client credentials, password or refresh token); a cookie session,
            with its CSRF token; or a command whose output is the token (desktop app and CLI only).
          </li>
          <li>
            <strong>Where the credential goes</strong>: as the API&apos;s specification declares, or a header, query
            parameter or cookie you name.
          </li>
          <li>
            <strong>Test</strong> runs an identity&apos;s login now and shows what came back, before you start a scan.
          </li>
        </ul>
        <h2>Users the scan registers</h2>
        <p>
          On a local target the scan registers its own test users by default (signup auto), so one identity is enough
          for the cross-user checks. Their passwords are shown on the scan&apos;s page (About this scan) to whoever may see
          the scan.
        </p>
        <h2>The same in YAML</h2>
        <p>
          <strong>Export YAML</strong> writes the identities, with secrets as <code>{'${env:NAME}'}</code> placeholders,
          the write policy and the seed; <strong>Import YAML</strong> reads one back; and{' '}
          <code>portcullis scan --config scan.yaml</code> runs the same file in CI. The project&apos;s{' '}
          <code>docs/scan-config.md</code> lists every field.
        </p>
      </>
    ),
  },
  {
    id: 'two-key-testing',
    section: 'advanced-features',
    title: 'Authorization testing with two keys',
    summary: 'How the primary and secondary keys find BOLA, BFLA and property-level flaws.',
    difficulty: 'Intermediate',
    body: () => (
      <>
        <p>
          Most serious API flaws are one user reaching another user&apos;s data or functions. To find them the scan needs
          two users of the API. With static keys:
        </p>
        <ol>
          <li>Create two ordinary accounts on the API under test (never production users).</li>
          <li>Give the first account&apos;s key as the primary key: it owns the objects the scan creates.</li>
          <li>
            Give the second account&apos;s key as the secondary key: the scan replays the first user&apos;s requests with it
            and reports the ones that succeed with the first user&apos;s data.
          </li>
          <li>
            Tell the scan which key belongs to the lower-privileged user: function-level tests (BFLA) try that user
            on the other user&apos;s functions.
          </li>
        </ol>
        <p>
          Before testing, the scan checks that each key is accepted; a refused key fails the scan with the endpoint and
          status that refused it. Without a secondary key the cross-user checks are skipped and the report says so. Keys
          that expire during a scan are better given as identities that log in by themselves.
        </p>
      </>
    ),
  },
  {
    id: 'triage',
    section: 'advanced-features',
    title: 'Triage findings: false positives and accepted risks',
    summary: 'Set a finding aside with a reason; it stays set aside in later scans, the score and CI.',
    difficulty: 'Intermediate',
    body: () => (
      <>
        <p>
          On a scan&apos;s page, the Triage panel under a finding marks it <strong>Open</strong>, a{' '}
          <strong>False positive</strong> or an <strong>Accepted risk</strong>, with a reason. The owner of the API and
          people with Manage access can triage; View access shows the mark only. The mark shows who set it and when.
        </p>
        <ul>
          <li>
            The mark follows the finding into every later scan of the API, so you decide once. A finding set aside leaves
            the security score, the counts, the dashboard and the CLI&apos;s <code>--fail-on</code>; reports list it
            apart.
          </li>
          <li>
            An accepted risk may end on a date. The date is a day of the time zone in your Settings, shown the same
            whatever computer you read it on; at the end of that day the finding counts again and the mark says the
            accepted risk ended.
          </li>
          <li>
            The triage filter of the findings list shows what is open, what is set aside and why, with counts.
          </li>
          <li>
            <strong>Export triage</strong> saves every mark of the API as a file that the CLI reads with{' '}
            <code>--baseline</code>, so CI fails only on findings nobody has looked at.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'coverage',
    section: 'advanced-features',
    title: 'What a scan tested: the Coverage tab',
    summary: 'Which operations answered to which identity, and why some checks could not run.',
    difficulty: 'Intermediate',
    body: () => (
      <>
        <p>
          A scan with few findings may mean a safe API or a scan that never got past the login. The Coverage tab tells
          them apart. Its first line says how many operations the scan reached with a success (2xx) as some identity, and
          how many operations some check could not exercise.
        </p>
        <ul>
          <li>
            <strong>Checks that could not run here</strong> lists the commonest reasons (needs a second identity, no
            object could be created, refused by the API) with what to do about each.
          </li>
          <li>
            <strong>Filters</strong>: All, Not reached (no identity got a 2xx), Only 4xx (every answer to every identity
            was a 4xx) and Skipped checks, each with its count; the search matches the method, path or name.
          </li>
          <li>
            <strong>Answers by identity</strong>: one row per operation with a status for each identity and the checks
            that ran, found something or were skipped; a row opens to list each skipped check with its reason, the
            API&apos;s answer and the fix.
          </li>
        </ul>
        <p>
          Compare with previous scan lists the operations the previous scan reached and this one did not. In CI,{' '}
          <code>--min-coverage</code> fails a run that reached too few operations.
        </p>
      </>
    ),
  },
  {
    id: 'flags-and-scope',
    section: 'advanced-features',
    title: 'Tune the checks per endpoint with flags',
    summary: 'Turn OWASP checks on or off per endpoint, skip endpoints, and decide what a scan may write.',
    difficulty: 'Intermediate',
    body: () => (
      <>
        <p>
          The flags screen opens after Configure Scan. It shows {PAGE_SIZES.flagsModal} endpoints per page; search by
          method, path or operation.
        </p>
        <ul>
          <li>Each flag is one OWASP API Top 10 (2023) category; a check runs on the endpoints that carry its flag.</li>
          <li>Changes are saved as you click. If the server refuses one, the switch goes back and says why.</li>
          <li>
            <strong>SKIP</strong> removes an endpoint from the scan: no request is sent to it. Use it for endpoints that
            send email, charge money or cannot be undone.
          </li>
          <li>
            <strong>Skip all</strong> marks every endpoint; then un-skip the few you want for a quick, focused scan. One
            flag can also be turned on or off for every endpoint the search matches.
          </li>
        </ul>
        <h2>What a scan may write</h2>
        <p>
          By default updates and deletes touch only objects the scan created itself. On a disposable copy you may let
          them touch existing objects too, and allow, one by one, the operations that look destructive (a route that
          resets data, a write that names a file). An allowed one is called once, after every other check. When the API
          runs on this machine or a private network and the scan will call a route that resets or wipes data, Configure
          Scan and the Start step say so before it starts.
        </p>
        <p>
          The scan never leaves the base URL&apos;s host, never follows a redirect to another host, paces its requests and
          stops at a request budget per endpoint.
        </p>
      </>
    ),
  },
  {
    id: 'cli',
    section: 'advanced-features',
    title: 'Scan from CI with the CLI',
    summary: 'portcullis scan in a pipeline: identities from YAML, --fail-on, --baseline and reports.',
    difficulty: 'Advanced',
    body: () => (
      <>
        <p>
          The same scanner runs from the command line, for pipelines. It imports the description, scans and writes{' '}
          <code>findings.json</code>:
        </p>
        <p>
          <code>
            portcullis scan --spec openapi.yaml --base-url https://staging.example.com/api --config scan.yaml --fail-on high
            --baseline triage.json --format sarif,junit --out scan-results
          </code>
        </p>
        <ul>
          <li>
            <code>--config</code> takes the identities YAML that Configure Scan exports; <code>{'${env:NAME}'}</code> reads
            each secret from the environment. For a quick run, <code>--key1</code> and <code>--key2</code> (or{' '}
            <code>PORTCULLIS_KEY_1</code> and <code>PORTCULLIS_KEY_2</code>) give static keys instead.
          </li>
          <li>
            <code>--fail-on critical|high|medium|low</code>: the exit code is 1 when a finding is at or above it
            (critical: CVSS 9.0 or more), 0 when none is, 2 on an error.
          </li>
          <li>
            <code>--baseline</code> takes the app&apos;s Export triage file or a previous run&apos;s{' '}
            <code>findings.json</code>: findings marked a false positive or an accepted risk are set aside, and findings
            already reported do not fail the run.
          </li>
          <li>
            <code>--format</code> writes reports next to <code>findings.json</code>: pdf (both PDFs), executive,
            technical, json, sarif, html, junit. <code>portcullis report</code> writes one for a scan kept in a data
            directory.
          </li>
          <li>
            <code>--min-coverage</code> fails a run that reached too few operations; <code>--har</code> saves the traffic;{' '}
            <code>--seed</code> repeats a run&apos;s probe values; <code>--writes existing</code> allows writes to
            existing objects on a disposable instance.
          </li>
        </ul>
        <p>
          The summary and one line per failing finding go to standard output, progress to standard error.{' '}
          <code>portcullis scan --help</code> lists every option.
        </p>
      </>
    ),
  },
  {
    id: 'schedules-and-sharing',
    section: 'advanced-features',
    title: 'Schedules and team sharing',
    summary: 'Recurring scans, View and Manage access, and who can do what.',
    difficulty: 'Intermediate',
    body: () => (
      <>
        <h2>Schedules</h2>
        <p>
          Manage → Schedule Scan runs the API daily, weekly or monthly with the configuration and keys of its last scan.
          The next run is shown; Disable Schedule removes it. A run missed while {PRODUCT_NAME} was closed happens once at
          the next start.
        </p>
        <h2>Sharing</h2>
        <ul>
          <li>Manage → Share Access invites an existing account of the same server by email.</li>
          <li>
            <strong>View</strong> lets them see the endpoints, scan history, scan pages and reports.{' '}
            <strong>Manage</strong> also lets them run scans and triage findings.
          </li>
          <li>Only the owner edits, deletes, shares, schedules and revokes. A shared user can leave the API.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'team-server',
    section: 'advanced-features',
    title: 'Run a team server',
    summary: 'Serve the same app to a team over HTTP with portcullis serve.',
    difficulty: 'Advanced',
    body: () => (
      <>
        <p>
          <code>portcullis serve</code> runs the same core over HTTP and serves this web app to browsers. Accounts, APIs,
          scans and shares live in a SQLite file in its data directory, or in a PostgreSQL database shared by several
          nodes (<code>PORTCULLIS_DATABASE_URL</code>).
        </p>
        <ul>
          <li>
            <code>portcullis serve --port 8080 --host 0.0.0.0 --data-dir ./data</code> chooses where it listens and keeps
            its data; <code>--help</code> lists every option.
          </li>
          <li>
            A team server refuses scans of loopback and private addresses, so users cannot aim it at its own network.
            Set <code>PORTCULLIS_ALLOW_LOCAL_SCANS=1</code> on a server that runs on your own machine.
          </li>
          <li>
            Scan keys are encrypted with a server key. Beyond loopback the server starts only when that key lives outside
            its data directory: <code>PORTCULLIS_SECRET_KEY</code> or <code>--secret-key-file</code>.
          </li>
          <li>Password reset links are printed on the server console, and emailed when SMTP is configured.</li>
          <li>The desktop app can work against a team server: Settings → Team server, or the login page.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'scan-failed',
    section: 'troubleshooting',
    title: 'My scan failed or found nothing',
    summary: 'Refused keys, failed logins, unreachable APIs, local scans, interrupted scans and empty reports.',
    difficulty: 'Intermediate',
    body: () => (
      <>
        <ul>
          <li>
            <strong>A key was refused</strong>: the scan names the endpoint and status. Check the key has not expired and
            matches the scheme the specification declares (bearer token, API key header, Basic).
          </li>
          <li>
            <strong>An identity could not log in</strong>: use its Test button in Configure Scan to see the request and the
            answer, and check where the token is read from.
          </li>
          <li>
            <strong>The API is unreachable</strong>: check the base URL (Manage → Edit Details) and that the API runs.
          </li>
          <li>
            <strong>New Scan is disabled</strong>: another scan is running (one at a time), or the API is local and this
            server does not allow local scans (&quot;{SCAN_MESSAGES.localDisabled}&quot;).
          </li>
          <li>
            <strong>The scan was interrupted</strong>: {PRODUCT_NAME} stopped while it ran; Retry on its page starts it
            again with the same configuration.
          </li>
          <li>
            <strong>No findings</strong>: open the Coverage tab. Operations that were never reached, or answered only
            4xx, point at a login or a base URL problem; skipped endpoints get no requests; without a second user the
            cross-user checks do not run.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'import-problems',
    section: 'troubleshooting',
    title: 'My import failed or has warnings',
    summary: 'Unsupported files, size limits, unresolved references and missing base URLs.',
    difficulty: 'Beginner',
    body: () => (
      <>
        <ul>
          <li>Only {extensions} files are accepted, up to {importLimitMb} MB.</li>
          <li>The error names the line or the place in the document that could not be read; fix it and import again.</li>
          <li>References to other files or URLs are not followed: bundle the specification into one file first.</li>
          <li>
            A file without a server URL imports with an empty base URL and a warning: set the real one with Manage → Edit
            Details before you scan.
          </li>
        </ul>
      </>
    ),
  },
];

export const FAQ: { q: string; a: () => ReactElement }[] = [
  {
    q: 'How often should I scan my APIs?',
    a: () => (
      <p>
        Scan after every change that touches authentication, authorization or data models, and at least weekly for APIs
        exposed to the internet. A daily schedule suits APIs that change often; weekly or monthly suits stable internal
        APIs. Schedules reuse the last scan&apos;s configuration, so run one scan by hand first.
      </p>
    ),
  },
  {
    q: 'How many APIs can I scan?',
    a: () => (
      <p>
        Free accounts can scan up to {FREE_PLAN_API_LIMIT} APIs; premium accounts are unlimited. One scan runs at a time
        per account, and each scan has a request budget so a large API cannot run away.
      </p>
    ),
  },
  {
    q: 'Which compliance standards does it cover?',
    a: () => (
      <p>
        Checks map to the OWASP API Security Top 10 (2023), findings carry a CVSS 3.1 score and vector and a CWE where
        one applies, and the SARIF export follows SARIF 2.1.0. Reports help as evidence for audits such as PCI DSS or SOC
        2, but a scan is not a certification.
      </p>
    ),
  },
  {
    q: 'Does it integrate with my tools?',
    a: () => (
      <p>
        Download results as SARIF (for code-scanning tools), JUnit (for CI test reports), JSON or standalone HTML from a
        scan report. In a pipeline, <code>portcullis scan</code> runs the same scanner and fails the build on new findings
        (see the CLI guide). A team server exposes the same HTTP API the app uses, documented in the project&apos;s API
        reference.
      </p>
    ),
  },
  {
    q: 'What does the security score mean?',
    a: () => (
      <p>
        It runs from 0 to 100. Each unique finding lowers it: critical (CVSS 9.0 or more) 25, high 15, medium 7, low 2,
        info 0. A score of 100 means the scan proved no problem, not that none exists.
      </p>
    ),
  },
  {
    q: 'Where do my API keys go?',
    a: () => (
      <p>
        On the desktop they go to your operating system&apos;s keychain; on a team server they are encrypted with the
        server&apos;s key. They are redacted from evidence, curl commands, logs and reports, and only the latest scan of an
        API keeps them (for its schedule).
      </p>
    ),
  },
];
