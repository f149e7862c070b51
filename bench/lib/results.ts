// Writes a benchmark's figures, with the machine they came from, to bench/results/<name>.json.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function writeResult(name: string, figures: unknown): void {
  const file = path.join('bench', 'results', `${name}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const machine = { node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memGiB: Math.round(os.totalmem() / 2 ** 30) };
  fs.writeFileSync(file, `${JSON.stringify({ name, at: new Date().toISOString(), machine, figures }, null, 2)}\n`);
  console.log(`wrote ${file}`);
}
