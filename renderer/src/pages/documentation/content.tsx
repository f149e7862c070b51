// The documentation's words: guides (with difficulty and read time) and the FAQ, written for
// Portcullis as it works (see docs/decisions.md and docs/api.md for the facts behind them).

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
import { SCAN_MESSAGES } from '../../../../shared/messages';

export type SectionId = 'getting-started' | 'advanced-features' | 'troubleshooting' | 'faq';
export type Difficulty = 'Beginner' | 'Intermediate' | 'Advanced';

export interface Guide {
  id: string;
  section: Exclude<SectionId, 'faq'>;
  title: string;
  summary: string;
  difficulty: Difficulty;
  readMinutes: number;
  body: () => ReactElement;
}

export const SECTIONS: { id: SectionId; title: string; lead: string }[] = [
  { id: 'getting-started', title: 'Getting Started', lead: 'From a specification file to your first report.' },
  { id: 'advanced-features', title: 'Advanced Features', lead: 'Authorization testing, per-endpoint checks, schedules, sharing and the team server.' },
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
    summary: 'Upload a specification, give the scan a key, pick the endpoints to test and start it.',
    difficulty: 'Beginner',
    readMinutes: 5,
    body: () => (
      <>
        <p>
          You need the API&apos;s specification (OpenAPI 3.x, Swagger 2.0 or a Postman collection) and a key or token of a
          user of that API. Scan only APIs you own or are allowed to test: a scan sends real requests, including writes.
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
            Paste the primary API key (a bearer token, an API key or user:password for Basic, as the specification
            declares). A second user&apos;s key is optional but enables the cross-user tests (see the two-key guide).
          </li>
          <li>
            Choose <strong>Next: Configure Flags</strong>. Each endpoint carries the OWASP checks that apply to it; SKIP
            leaves an endpoint out entirely.
          </li>
        </ol>
        <h2>3. Start and follow it</h2>
        <ol>
          <li>
            Choose <strong>Start Scan</strong>. The card shows Scanning... and a progress bar; the app checks on the scan
            every 5 seconds.
          </li>
          <li>When it ends you get a message and the card shows the number of vulnerabilities found.</li>
          <li>
            Open <strong>History</strong> and choose <strong>View Report</strong> to read the findings.
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
    readMinutes: 4,
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
    id: 'reading-reports',
    section: 'getting-started',
    title: 'Read a scan report',
    summary: 'Severity, CVSS, evidence and curl commands, the security score, and the PDF reports.',
    difficulty: 'Beginner',
    readMinutes: 6,
    body: () => (
      <>
        <p>
          A report lists the findings of one completed scan, {PAGE_SIZES.reportModal} per page, grouped by severity.
          A finding&apos;s severity is the band of its CVSS 3.1 score: high 7.0 to 10, medium 4.0 to 6.9, low 0.1 to
          3.9, and info at 0 (no impact of its own). &quot;Critical&quot; marks a score of 9.0 or more within high.
        </p>
        <ul>
          <li>
            <strong>Evidence</strong> starts with the method and path, then the requests and responses that prove the
            finding. A finding is only reported when a response proves it.
          </li>
          <li>
            <strong>curl</strong> reproduces the request. Keys are never stored in it: it uses{' '}
            <code>$PORTCULLIS_KEY_1</code> and <code>$PORTCULLIS_KEY_2</code> (or the identity&apos;s name, as in{' '}
            <code>$PORTCULLIS_ALICE_TOKEN</code>; a password as <code>$PORTCULLIS_ALICE_PASSWORD</code>, the names Export YAML
            uses), so export your keys under those names first: each finding lists the variables its command reads. A
            proof that forges a token (a JWT with <code>&quot;alg&quot;: &quot;none&quot;</code>, a guessed secret, another
            user&apos;s subject) starts with the step that builds it from your key 1 with a fresh expiry (bash and Node), so
            it still works days later. A finding whose proof
            takes several requests (create as one user, read as another) gives them as numbered steps to run in order,
            with the tokens and passwords as variables they list at the top.
          </li>
          <li>
            <strong>Security score</strong> runs from 0 to 100: 100 minus 25 for each critical finding (CVSS 9.0 or
            more), 15 per high, 7 per medium and 2 per low, never below 0.
          </li>
          <li>
            <strong>Skipped checks</strong> say why a check did not run (for example no second key for the cross-user
            tests).
          </li>
          <li>
            <strong>Downloads</strong>: the executive PDF (score, distribution, top risks) for stakeholders, the
            technical PDF (every finding with evidence and fixes) for engineers, and JSON, SARIF, JUnit and HTML
            exports.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'two-key-testing',
    section: 'advanced-features',
    title: 'Authorization testing with two keys',
    summary: 'How the primary and secondary keys find BOLA, BFLA and property-level flaws.',
    difficulty: 'Intermediate',
    readMinutes: 7,
    body: () => (
      <>
        <p>
          Most serious API flaws are one user reaching another user&apos;s data or functions. To find them the scan needs
          two users of the API.
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
          status that refused it. Without a secondary key the cross-user checks are skipped and the report says so.
        </p>
      </>
    ),
  },
  {
    id: 'flags-and-scope',
    section: 'advanced-features',
    title: 'Tune the checks per endpoint with flags',
    summary: 'Turn OWASP checks on or off per endpoint, skip endpoints, and keep a scan small.',
    difficulty: 'Intermediate',
    readMinutes: 6,
    body: () => (
      <>
        <p>
          The flags screen opens after Configure Scan. It shows {PAGE_SIZES.flagsModal} endpoints per page; search by
          method or path.
        </p>
        <ul>
          <li>Each flag is one OWASP API Top 10 (2023) category; a check runs on the endpoints that carry its flag.</li>
          <li>Changes are saved as you click. If the server refuses one, the switch goes back and says why.</li>
          <li>
            <strong>SKIP</strong> removes an endpoint from the scan: no request is sent to it. Use it for endpoints that
            send email, charge money or cannot be undone.
          </li>
          <li>
            <strong>Skip all</strong> marks every endpoint; then un-skip the few you want for a quick, focused scan.
          </li>
        </ul>
        <p>
          The scan never leaves the base URL&apos;s host, never follows a redirect to another host, paces its requests and
          stops at a request budget per endpoint.
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
    readMinutes: 5,
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
            <strong>View</strong> lets them see the endpoints, scan history and reports. <strong>Manage</strong> also
            lets them run scans (from their Manage button).
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
    readMinutes: 5,
    body: () => (
      <>
        <p>
          <code>portcullis serve</code> runs the same core over HTTP and serves this web app to browsers. Accounts, APIs,
          scans and shares live in one SQLite file in its data directory.
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
          <li>Scan keys are encrypted with a server key (<code>PORTCULLIS_SECRET_KEY</code> or a key file in the data directory).</li>
          <li>Password reset links are printed on the server console, and emailed when SMTP is configured.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'scan-failed',
    section: 'troubleshooting',
    title: 'My scan failed or found nothing',
    summary: 'Refused keys, unreachable APIs, local scans, interrupted scans and empty reports.',
    difficulty: 'Intermediate',
    readMinutes: 5,
    body: () => (
      <>
        <ul>
          <li>
            <strong>A key was refused</strong>: the report names the endpoint and status. Check the key has not expired and
            matches the scheme the specification declares (bearer token, API key header, Basic).
          </li>
          <li>
            <strong>The API is unreachable</strong>: check the base URL (Manage → Edit Details) and that the API runs.
          </li>
          <li>
            <strong>New Scan is disabled</strong>: another scan is running (one at a time), or the API is local and this
            server does not allow local scans (&quot;{SCAN_MESSAGES.localDisabled}&quot;).
          </li>
          <li>
            <strong>The scan was interrupted</strong>: {PRODUCT_NAME} stopped while it ran; start it again.
          </li>
          <li>
            <strong>No findings</strong>: check the flags (skipped endpoints get no requests) and the report&apos;s skipped
            checks; without a second key the cross-user checks do not run.
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
    readMinutes: 4,
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
        scan report. A team server exposes the same HTTP API the app uses, documented in the project&apos;s API reference.
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
