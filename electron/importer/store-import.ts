// Writes an import result: the API and all its endpoints and flags in one transaction, within the
// owner's quotas when they are given (a refusal writes nothing).

import type { Repos } from '../store/index';
import type { QuotaLimits } from '../store/quotas';
import type { ImportResult, PreparedImport } from './result';

export async function storeImport(
  repos: Repos,
  input: { ownerId: string; result: ImportResult | PreparedImport; filename: string | null; now: Date; quotas?: QuotaLimits },
): Promise<string> {
  const { result } = input;
  return repos.apis.createWithEndpoints(
    {
      ownerId: input.ownerId,
      name: result.name,
      baseUrl: result.base_url,
      sourceFormat: result.format,
      sourceFilename: input.filename,
      specVersion: result.spec_version,
      security: result.security,
      endpoints: result.endpoints,
    },
    input.now,
    input.quotas,
  );
}
