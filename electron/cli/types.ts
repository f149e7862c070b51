// The shape of a CLI subcommand: a summary for the help text and a run that returns the exit code.

export interface CliCommand {
  summary: string;
  /** Resolves with the exit code; long-running commands resolve when they stop. */
  run(args: string[]): Promise<number>;
}

/** Thrown for bad arguments: the message is shown, the exit code is 2. */
export class UsageError extends Error {}
