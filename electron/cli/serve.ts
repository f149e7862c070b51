// `portcullis serve`: the team server on a host and port, with its data dir.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../config';
import { OWASP_SCRYPT_COST } from '../accounts/passwords';
import { createCore } from '../core';
import { createLogger } from '../log';
import { isPostgresUrl, serverOf } from '../store/database';
import { startServer } from '../server';
import { parseTrustProxyList, trustedProxies, TrustProxyError } from '../trusted-proxies';
import { UsageError, type CliCommand } from './types';

const HELP = `Usage: portcullis serve [--port 4780] [--host 127.0.0.1] [--data-dir <dir>] [--database-url <url>] [--secret-key-file <file>] [--trust-proxy <cidr>...] [--web <dir>]

Runs the team server: the Portcullis API over HTTP and the web app for browsers.
  --port       port to listen on (default 4780; 0 picks a free one)
  --host       address to bind (default 127.0.0.1; use 0.0.0.0 to serve your network)
  --data-dir   where the database and keys live (default ${defaultDataDir()})
  --database-url
               keep the data in PostgreSQL instead (postgres://user:password@host:5432/portcullis; or set
               PORTCULLIS_DATABASE_URL, which keeps the password out of the process list). Several nodes on
               one database act as one server; each needs the same secret key (docs/deployment.md)
  --secret-key-file
               the key that encrypts stored scan keys, in a file outside the data dir (mode 0600);
               required beyond loopback unless PORTCULLIS_SECRET_KEY is set
  --trust-proxy <cidr>...
               the load balancers in front of this node (addresses or CIDR ranges, e.g. 10.0.0.0/8 or
               fd00::/8, or loopback; repeat or separate with commas; or set PORTCULLIS_TRUST_PROXY). A request
               from one of them is taken to come from the rightmost X-Forwarded-For address that is not
               itself listed: the sign-in throttles, sessions and logs see that client. Default: none, every
               forwarded header is ignored
  --web        the built web app (default: dist/renderer next to the program)
  --verbose    log every request

Environment: PORTCULLIS_ALLOW_LOCAL_SCANS=1 lets users scan loopback and private addresses;
PORTCULLIS_SMTP_URL sends reset links by email; PORTCULLIS_PUBLIC_URL sets the base of links;
PORTCULLIS_OIDC_CLIENT_ID (+ _CLIENT_SECRET, _ISSUER, Google by default) turns on social sign-in;
PORTCULLIS_CORS_ORIGINS lists more browser origins allowed to call the API (the desktop app's is built in);
PORTCULLIS_SECRET_KEY (or PORTCULLIS_SECRET_KEY_FILE) is the key of stored scan keys: on 127.0.0.1 a key file
is generated in the data dir, beyond loopback one of them is required (make one: openssl rand -base64 32);
PORTCULLIS_QUOTA_APIS, _ENDPOINTS and _BYTES limit what each user owns (default 200, 100000, 1GB; 0 = none);
PORTCULLIS_IMPORT_MEMORY_MB, _READ_TIMEOUT_MS and _WORKERS bound the worker threads that read imports
(default 500 MB and 60 s per import, 2 at once).`;

/** dist/renderer relative to this bundle (dist/core/cli.js). */
function defaultWebDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '..', 'renderer');
}

export const serveCommand: CliCommand = {
  summary: 'run the team server (API + web app)',
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: 'string', default: '4780' },
        host: { type: 'string', default: '127.0.0.1' },
        'data-dir': { type: 'string' },
        'database-url': { type: 'string' },
        'secret-key-file': { type: 'string' },
        'trust-proxy': { type: 'string', multiple: true },
        web: { type: 'string' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535, got "${values.port}".`);
    const dataDir = path.resolve(values['data-dir'] ?? defaultDataDir());
    const logger = createLogger({ level: values.verbose ? 'debug' : 'info' });
    const secretKeyFile = values['secret-key-file'] !== undefined ? path.resolve(values['secret-key-file']) : undefined;
    const databaseUrl = values['database-url'];
    if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) throw new UsageError('--database-url must be a postgres:// or postgresql:// URL.');
    const trustProxy = parseTrustProxyList(values['trust-proxy'] ?? [process.env.PORTCULLIS_TRUST_PROXY ?? '']);
    try {
      trustedProxies(trustProxy);
    } catch (err) {
      if (err instanceof TrustProxyError) throw new UsageError(`--trust-proxy (or PORTCULLIS_TRUST_PROXY): ${err.message}`);
      throw err;
    }
    // The host goes to the core first: beyond loopback it refuses a key kept in the data dir before it creates a file.
    const core = await createCore({
      shell: 'server',
      dataDir,
      logger,
      listenHost: values.host,
      ...(secretKeyFile ? { secretKeyFile } : {}),
      ...(databaseUrl ? { databaseUrl } : {}),
    });
    const server = await startServer({ core, host: values.host, port, staticDir: values.web ?? defaultWebDir(), trustProxy });
    if (!process.env.PORTCULLIS_PUBLIC_URL) core.config.publicUrl = server.url;
    return new Promise<number>((resolve) => {
      let stopping = false;
      const stop = async () => {
        // A second signal while stopping means "now".
        if (stopping) process.exit(130);
        stopping = true;
        process.stdout.write('Stopping...\n');
        await server.close();
        await core.close();
        resolve(0);
      };
      // Handlers go in before the "listening" line: whoever waits for that line may signal at once.
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      // Settings before the "listening" line: whoever waits for that line reads what came before it.
      if (core.config.scryptCost.N < OWASP_SCRYPT_COST.N) {
        process.stdout.write('Password hashing at a test cost (PORTCULLIS_TEST_FAST_HASHING): for throwaway test servers only, never for real accounts.\n');
      }
      if (trustProxy.length) process.stdout.write(`Trusted proxies: ${trustProxy.join(', ')} (client addresses from X-Forwarded-For)\n`);
      process.stdout.write(`Portcullis team server listening on ${server.url}\n`);
      process.stdout.write(`Data: ${dataDir}\n`);
      if (core.config.databaseUrl) process.stdout.write(`Database: PostgreSQL at ${serverOf(core.config.databaseUrl)} (node ${core.config.nodeId})\n`);
    });
  },
};
