// What the SecretStore keeps for a scan (and for an identity setup that worked): the identities with
// their secrets (v2), or the two keys of older scans.

import { identitiesFromKeys, type IdentityConfig, type SignupSetting } from '../../shared/identities';

export interface StoredIdentities {
  v: 2;
  identities: IdentityConfig[];
  signup?: SignupSetting;
}

export function parseStoredIdentities(raw: string): StoredIdentities {
  const v = JSON.parse(raw) as Partial<StoredIdentities> & { 1?: string; 2?: string | null };
  if (v.v === 2 && Array.isArray(v.identities)) return v as StoredIdentities;
  return { v: 2, identities: identitiesFromKeys(v[1] ?? '', v[2] ?? null) };
}
