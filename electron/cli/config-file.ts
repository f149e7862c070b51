// A scan configuration file given with --config (portcullis scan, portcullis retest): read, parsed,
// its ${env:NAME} secrets taken from the environment; a file that cannot be read or is not valid is a
// usage error that names the file and each problem.

import fs from 'node:fs';
import type { ScanConfig } from '../../shared/identities';
import { formatConfigIssues, parseScanConfigYaml } from '../../shared/scan-config-yaml';
import { UsageError } from './types';

export function readConfigFile(file: string): ScanConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const parsed = parseScanConfigYaml(text, { env: (name) => process.env[name] });
  if (!parsed.ok) throw new UsageError(`The scan configuration is not valid:\n${formatConfigIssues(parsed.issues, file).join('\n')}`);
  return parsed.config;
}
