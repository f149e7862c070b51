// Process entry of the `portcullis` command (bundled to dist/core/cli.js).

import { main } from './cli';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    process.exit(2);
  },
);
