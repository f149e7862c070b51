// The command line both standalone test targets share (serve.ts for Acme Shop, graphql/serve.ts for the
// City Library): the common flags, the temporary file they print, and a clean stop on SIGINT or SIGTERM.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The options every target takes from the command line; each target's own options extend them. */
export interface CliTargetOptions<Id extends string> {
  mode: 'vulnerable' | 'hardened';
  flaws?: Partial<Record<Id, boolean>>;
  port?: number;
  fetchAllowlist?: string[];
}

export interface TargetCli<Id extends string> {
  /** The program's name at the start of its error messages. */
  name: string;
  flawIds: readonly Id[];
  /** The line --list-flaws prints for a flaw (without the newline). */
  describeFlaw: (id: Id) => string;
  /** Handles a flag only this target knows and returns true, or returns false; next() reads the flag's value. */
  extraFlag?: (flag: string, next: () => string | undefined, fail: (message: string) => never) => boolean;
}

/**
 * Reads --vulnerable, --hardened, --only, --enable, --disable, --port, --allow-fetch and --list-flaws
 * (plus the target's own flags) into options; exits with 2 and a message on anything else.
 */
export function parseTargetArgs<Id extends string, O extends CliTargetOptions<Id>>(cli: TargetCli<Id>, args: string[], options: O): O {
  function fail(message: string): never {
    process.stderr.write(`${cli.name}: ${message}\n`);
    process.exit(2);
  }
  function ids(list: string | undefined): Id[] {
    if (!list) fail('a comma-separated list of flaw ids is required');
    return list.split(',').map((id) => {
      if (!(cli.flawIds as readonly string[]).includes(id)) fail(`unknown flaw id "${id}" (see --list-flaws)`);
      return id as Id;
    });
  }
  const flaws: Partial<Record<Id, boolean>> = (options.flaws ??= {});
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = () => args[++i];
    switch (a) {
      case '--vulnerable':
        options.mode = 'vulnerable';
        break;
      case '--hardened':
        options.mode = 'hardened';
        break;
      case '--only':
        options.mode = 'hardened';
        for (const id of ids(next())) flaws[id] = true;
        break;
      case '--enable':
        for (const id of ids(next())) flaws[id] = true;
        break;
      case '--disable':
        for (const id of ids(next())) flaws[id] = false;
        break;
      case '--port':
        options.port = Number(next());
        if (!Number.isInteger(options.port)) fail('--port needs a number');
        break;
      case '--allow-fetch':
        (options.fetchAllowlist ??= []).push(next() ?? fail('--allow-fetch needs an origin'));
        break;
      case '--list-flaws':
        for (const id of cli.flawIds) process.stdout.write(`${cli.describeFlaw(id)}\n`);
        process.exit(0);
        break;
      default:
        if (!cli.extraFlag?.(a, next, fail)) fail(`unknown option ${a}`);
    }
  }
  return options;
}

/**
 * Writes the file a started target hands out (its spec or SDL) into a fresh temporary directory, prints
 * lines(file) one per line, and on SIGINT or SIGTERM closes the target, removes the directory and exits 0.
 */
export function announceUntilSignal(
  target: { close(): Promise<void> },
  file: { dirPrefix: string; name: string; text: string },
  lines: (file: string) => string[],
): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), file.dirPrefix));
  const filePath = path.join(dir, file.name);
  fs.writeFileSync(filePath, file.text);
  process.stdout.write([...lines(filePath), ''].join('\n'));

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void target.close().finally(() => {
      fs.rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
