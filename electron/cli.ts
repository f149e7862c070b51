// `portcullis`: the command-line shell of the core. Each subcommand lives in cli/<name>.ts.

import { migrateStoreCommand } from './cli/migrate-store';
import { reportCommand } from './cli/report';
import { retestCommand } from './cli/retest';
import { scanCommand } from './cli/scan';
import { serveCommand } from './cli/serve';
import type { CliCommand } from './cli/types';

const COMMANDS: Record<string, CliCommand> = {
  serve: serveCommand,
  scan: scanCommand,
  report: reportCommand,
  retest: retestCommand,
  'migrate-store': migrateStoreCommand,
};

function usage(): string {
  const width = Math.max(8, ...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, cmd]) => `  ${name.padEnd(width)} ${cmd.summary}`);
  return `Usage: portcullis <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "portcullis <command> --help" for the options of a command.`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${usage()}\n`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    return 2;
  }
}
