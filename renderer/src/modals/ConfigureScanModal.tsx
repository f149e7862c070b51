// Configure Scan (spec sections 4, 5): the profile (one option), the primary key (required: Next stays
// disabled while it is empty or spaces), an optional secondary key, and which of the two belongs to
// the lower-privileged user. Or, instead of the keys, named identities (the Identities step: login
// recipes, OAuth2, cookie sessions). "Next: Configure Flags" creates the scan.

import { useEffect, useId, useState, type FormEvent, type ReactElement } from 'react';
import { SCAN_PROFILES } from '../../../shared/constants';
import type { ApiSummary, IdentitySetup, LastScanConfiguration } from '../../../shared/contract';
import { formatTimestamp } from '../../../shared/display';
import { expiredStaticTokens } from '../../../shared/identities';
import { API_MESSAGES, FALLBACK_MESSAGES, IDENTITY_MESSAGES } from '../../../shared/messages';
import { validateScanConfig } from '../../../shared/validation';
import { PACE_MESSAGES, SCAN_PACE_LIMITS } from '../../../shared/scan-traffic';
import { createScan, forgetIdentitySetup, identityRecipe, identitySetups, lastScanConfig, repeatLastScan, type ScanConfig } from '../api/scans';
import { Alert } from '../components/Alert';
import { Icon } from '../components/Icon';
import { Modal } from '../components/Modal';
import { when } from '../lib/format';
import { currentAuth } from '../stores/useAuthStore';
import { userZoneStore, useUserZone } from '../stores/useUserZoneStore';
import { IdentitiesStep } from './identities/IdentitiesStep';
import { useIdentitiesForm } from './identities/useIdentitiesForm';
import { reasonOf } from './shared';
import { DEFAULT_WRITE_POLICY, seedError, WritePolicyFields, writesRequest, type WritePolicyValue } from './WritePolicyFields';

type Mode = 'keys' | 'identities';

/** The message for a pace field outside its bounds (or not a whole number); null when empty or fine. */
function paceError(text: string, bounds: { min: number; max: number }, message: string): string | null {
  if (!text.trim()) return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= bounds.min && n <= bounds.max ? null : message;
}

/** After a failed Next, the first field marked invalid (once rendered) takes the focus, so it is in view. */
function focusFirstInvalid(): void {
  setTimeout(() => {
    const field = document.querySelector<HTMLElement>('[data-testid="identities-step"] [aria-invalid="true"]');
    field?.focus();
  }, 0);
}

export function ConfigureScanModal({
  api,
  onClose,
  onCreated,
}: {
  api: ApiSummary;
  onClose(): void;
  onCreated(scanId: string, profile: string): void;
}): ReactElement {
  const [profile, setProfile] = useState<string>(SCAN_PROFILES[0].value);
  const [key1, setKey1] = useState('');
  const [key2, setKey2] = useState('');
  const [lower, setLower] = useState<1 | 2>(2);
  const [showKeys, setShowKeys] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [mode, setMode] = useState<Mode>('keys');
  /** The pace as typed; empty: the server's default. */
  const [rps, setRps] = useState('');
  const [concurrency, setConcurrency] = useState('');
  const [writePolicy, setWritePolicy] = useState<WritePolicyValue>(DEFAULT_WRITE_POLICY);
  const id = useId();
  const identities = useIdentitiesForm(api.id, mode === 'identities', { key1, key2, lower });
  const zone = useUserZone();
  /** The first static JWT past its expiry, as the message the server would give (issue 31): refused before the request. */
  const expiredMessage = (list: readonly { name: string; token?: string }[]): { index: number; message: string } | null => {
    const expired = expiredStaticTokens(list, Date.now())[0];
    return expired ? { index: expired.index, message: IDENTITY_MESSAGES.tokenExpired(expired.name, formatTimestamp(expired.expiredAt, zone.zone), zone.label) } : null;
  };
  const keysReady = validateScanConfig({ api_key_1: key1 }).length === 0;
  // Identities: errors show on Next; placeholders the server would refuse keep it disabled.
  const identitiesReady = identities.drafts.length > 0 && identities.envNames.length === 0;
  const ready = mode === 'keys' ? keysReady : identitiesReady;
  const hasKey2 = key2.trim() !== '';
  const rpsError = paceError(rps, SCAN_PACE_LIMITS.rps, PACE_MESSAGES.rps);
  const concurrencyError = paceError(concurrency, SCAN_PACE_LIMITS.concurrency, PACE_MESSAGES.concurrency);
  const pace = { ...(rps.trim() ? { rps: Number(rps) } : {}), ...(concurrency.trim() ? { concurrency: Number(concurrency) } : {}) };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!ready || creating) return;
    const auth = currentAuth();
    if (!auth) return;
    setError(null);
    const seedProblem = seedError(writePolicy.seed);
    if (rpsError || concurrencyError || seedProblem) {
      setError(API_MESSAGES.createScanError((rpsError ?? concurrencyError ?? seedProblem)!));
      return;
    }
    const writes = writesRequest(writePolicy);
    let config: ScanConfig;
    if (mode === 'identities') {
      const check = identities.check();
      if (!check.config) {
        setError(IDENTITY_MESSAGES.fixErrors);
        focusFirstInvalid();
        return;
      }
      const expired = expiredMessage(check.config.identities);
      if (expired) {
        identities.serverErrors([{ field: `identities.${expired.index}.token`, message: expired.message }]);
        setError(API_MESSAGES.createScanError(expired.message));
        focusFirstInvalid();
        return;
      }
      config = { scan_profile: profile, identities: check.inputs, signup: identities.signup, ...(identities.keptFrom ? { kept_from: identities.keptFrom } : {}), ...pace, ...writes };
    } else {
      const expired = expiredMessage([{ name: 'key 1', token: key1.trim() }, ...(hasKey2 ? [{ name: 'key 2', token: key2.trim() }] : [])]);
      if (expired) {
        setError(API_MESSAGES.createScanError(expired.message));
        return;
      }
      config = { scan_profile: profile, api_key_1: key1.trim(), ...(hasKey2 ? { api_key_2: key2.trim(), lower_privilege_key: lower } : {}), ...pace, ...writes };
    }
    setCreating(true);
    try {
      const res = await createScan(auth, api.id, config);
      if (res.ok && res.data?.scan_id) {
        onCreated(res.data.scan_id, profile);
        return;
      }
      if (!res.ok && mode === 'identities' && res.errors.length) {
        identities.serverErrors(res.errors);
        focusFirstInvalid();
      }
      setError(API_MESSAGES.createScanError(res.message || FALLBACK_MESSAGES.createScan));
    } catch (err) {
      setError(API_MESSAGES.createScanError(reasonOf(err, FALLBACK_MESSAGES.createScan)));
    } finally {
      setCreating(false);
    }
  };

  // The last configuration of this API (the caller's own scan that still holds its keys), offered again.
  const [last, setLast] = useState<LastScanConfiguration | null>(null);
  useEffect(() => {
    const auth = currentAuth();
    if (!auth) return;
    const controller = new AbortController();
    lastScanConfig(auth, api.id, controller.signal)
      .then((res) => res.ok && setLast(res.data?.last ?? null))
      .catch(() => undefined);
    return () => controller.abort();
  }, [api.id]);

  // The identity setups that worked for this API (issue 31): any of them fills the identities in.
  const [setups, setSetups] = useState<IdentitySetup[]>([]);
  const [setupNote, setSetupNote] = useState<string | null>(null);
  useEffect(() => {
    const auth = currentAuth();
    if (!auth) return;
    void userZoneStore.getState().load();
    const controller = new AbortController();
    identitySetups(auth, api.id, controller.signal)
      .then((res) => res.ok && setSetups(res.data?.setups ?? []))
      .catch(() => undefined);
    return () => controller.abort();
  }, [api.id]);

  const pickSetup = async (setup: IdentitySetup) => {
    const auth = currentAuth();
    if (!auth) return;
    setError(null);
    setSetupNote(null);
    try {
      const res = await identityRecipe(auth, api.id, { setup_id: setup.id });
      if (!res.ok || !res.data) {
        setError(res.message || IDENTITY_MESSAGES.setupGone);
        return;
      }
      setMode('identities');
      identities.loadRecipe(res.data, { setup_id: setup.id });
      setSetupNote(IDENTITY_MESSAGES.setupLoaded(formatTimestamp(setup.worked_at, zone.zone)));
    } catch (err) {
      setError(reasonOf(err, IDENTITY_MESSAGES.setupGone));
    }
  };

  const forgetSetup = async (setup: IdentitySetup) => {
    const auth = currentAuth();
    if (!auth) return;
    try {
      const res = await forgetIdentitySetup(auth, api.id, setup.id);
      if (res.ok || res.status === 404) setSetups((list) => list.filter((x) => x.id !== setup.id));
      else setError(res.message);
    } catch (err) {
      setError(reasonOf(err, IDENTITY_MESSAGES.setupGone));
    }
  };

  const repeat = async () => {
    const auth = currentAuth();
    if (!auth || !last || creating) return;
    setError(null);
    setCreating(true);
    try {
      const res = await repeatLastScan(auth, api.id);
      if (res.ok && res.data?.scan_id) {
        onCreated(res.data.scan_id, last.profile);
        return;
      }
      setError(API_MESSAGES.createScanError(res.message || FALLBACK_MESSAGES.createScan));
    } catch (err) {
      setError(API_MESSAGES.createScanError(reasonOf(err, FALLBACK_MESSAGES.createScan)));
    } finally {
      setCreating(false);
    }
  };

  const keyType = showKeys ? 'text' : 'password';
  return (
    <Modal
      title="Configure Scan"
      subtitle={api.name}
      onClose={onClose}
      busy={creating}
      wide={mode === 'identities'}
      testId="configure-scan-modal"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose} disabled={creating}>
            Cancel
          </button>
          <button type="submit" form={`${id}-form`} className="button button-primary" disabled={!ready || creating} data-testid="scan-next">
            {creating ? 'Creating scan...' : 'Next: Configure Flags'}
            <Icon name="arrowRight" size={16} />
          </button>
        </>
      }
    >
      {last && (
        <div className="last-config" data-testid="last-config">
          <div>
            <strong>Same as last time?</strong>
            <p className="muted small">
              Your scan of {when(last.created_at)}:{' '}
              {last.identities.length ? last.identities.map((i) => `${i.name} (${i.obtained})`).join(', ') : 'its keys'}
              {last.rps ? `, ${last.rps} requests/s` : ''}. Its keys are kept; nothing to type again.
            </p>
          </div>
          <button type="button" className="button button-secondary" onClick={() => void repeat()} disabled={creating} data-testid="last-config-use">
            Use this configuration
          </button>
        </div>
      )}
      {setups.length > 0 && (
        <section className="identity-setups" aria-labelledby={`${id}-setups`} data-testid="identity-setups">
          <p className="identity-setups-head">
            <strong id={`${id}-setups`}>{IDENTITY_MESSAGES.setupsTitle}</strong>
            <span className="muted small">{IDENTITY_MESSAGES.setupsLead}</span>
          </p>
          <ul className="identity-setup-list">
            {setups.map((setup) => (
              <li key={setup.id} className="identity-setup" data-testid="identity-setup">
                <span className="identity-setup-who">
                  {setup.identities.map((i) => (
                    <span key={i.name} className="identity-setup-identity" title={`${i.name}: ${i.obtained}`}>
                      <strong>{i.name}</strong> <span className="muted">{i.obtained}</span>
                    </span>
                  ))}
                </span>
                <span className="muted small identity-setup-when">worked {formatTimestamp(setup.worked_at, zone.zone)}</span>
                <span className="identity-setup-actions">
                  <button type="button" className="button button-secondary button-small" onClick={() => void pickSetup(setup)} disabled={creating} data-testid="identity-setup-use">
                    {IDENTITY_MESSAGES.setupUse}
                  </button>
                  <button
                    type="button"
                    className="button button-ghost button-small"
                    onClick={() => void forgetSetup(setup)}
                    disabled={creating}
                    aria-label={`${IDENTITY_MESSAGES.setupForget} the setup of ${setup.identities.map((i) => i.name).join(', ')}`}
                    data-testid="identity-setup-forget"
                  >
                    {IDENTITY_MESSAGES.setupForget}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {error && (
        <Alert kind="error" testId="scan-config-error">
          {error}
        </Alert>
      )}
      {setupNote && mode === 'identities' && (
        <Alert kind="success" testId="identity-setup-loaded">
          {setupNote}
        </Alert>
      )}
      <form id={`${id}-form`} className="form" onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
        <div className="field">
          <label htmlFor={`${id}-profile`}>Scan profile</label>
          <select id={`${id}-profile`} value={profile} onChange={(e) => setProfile(e.target.value)} disabled={creating} data-testid="scan-profile">
            {SCAN_PROFILES.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <div className="segmented scan-mode" role="group" aria-label="How the scan signs in">
          {(['keys', 'identities'] as const).map((m) => (
            <button key={m} type="button" aria-pressed={mode === m} onClick={() => setMode(m)} disabled={creating} data-testid={`scan-mode-${m}`}>
              <Icon name={m === 'keys' ? 'key' : 'users'} size={16} />
              {m === 'keys' ? IDENTITY_MESSAGES.useKeys : IDENTITY_MESSAGES.useIdentities}
            </button>
          ))}
        </div>
        {mode === 'identities' ? (
          <IdentitiesStep
            form={identities}
            apiName={api.name}
            disabled={creating}
            policy={writePolicy}
            onImportPolicy={(c) => setWritePolicy({ writes: c.writes ?? 'created', allowed: c.destructive ?? [], seed: c.seed !== undefined ? String(c.seed) : '' })}
          />
        ) : (
          <>
            <div className="field">
              <label htmlFor={`${id}-key1`}>Primary API key (required)</label>
              <input
                id={`${id}-key1`}
                type={keyType}
                value={key1}
                onChange={(e) => setKey1(e.target.value)}
                disabled={creating}
                required
                aria-describedby={`${id}-key1-hint`}
                autoComplete="off"
                spellCheck={false}
                data-testid="scan-key1"
              />
              <small id={`${id}-key1-hint`} className="field-hint">
                A token or key of a normal user of this API: it owns the objects the scan creates. Sent as the API&apos;s
                security scheme declares (bearer by default).
              </small>
            </div>
            <div className="field">
              <label htmlFor={`${id}-key2`}>Secondary API key (optional)</label>
              <input
                id={`${id}-key2`}
                type={keyType}
                value={key2}
                onChange={(e) => setKey2(e.target.value)}
                disabled={creating}
                aria-describedby={`${id}-key2-hint`}
                autoComplete="off"
                spellCheck={false}
                data-testid="scan-key2"
              />
              <small id={`${id}-key2-hint`} className="field-hint">
                A second user&apos;s key enables the cross-user tests (BOLA, BFLA, BOPLA). Without it they are skipped.
              </small>
            </div>
            {hasKey2 && (
              <fieldset className="radio-cards" style={{ gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' }} data-testid="lower-privilege">
                <legend>Which key belongs to the lower-privileged user?</legend>
                {([2, 1] as const).map((k) => (
                  <label key={k} className="radio-card">
                    <input type="radio" name={`${id}-lower`} checked={lower === k} onChange={() => setLower(k)} disabled={creating} data-testid={`lower-key-${k}`} />
                    <span>
                      <strong>{k === 1 ? 'Primary key' : 'Secondary key'}</strong>
                      <span>Function-level tests try this user on the other user&apos;s functions.</span>
                    </span>
                  </label>
                ))}
              </fieldset>
            )}
            <label className="checkbox">
              <input type="checkbox" checked={showKeys} onChange={(e) => setShowKeys(e.target.checked)} />
              <span>Show keys</span>
            </label>
          </>
        )}
        <fieldset className="scan-pace" data-testid="scan-pace">
          <legend>Pace</legend>
          <div className="field">
            <label htmlFor={`${id}-rps`}>Requests per second</label>
            <input
              id={`${id}-rps`}
              type="number"
              inputMode="numeric"
              min={SCAN_PACE_LIMITS.rps.min}
              max={SCAN_PACE_LIMITS.rps.max}
              step={1}
              value={rps}
              placeholder={last?.rps !== null && last?.rps !== undefined ? String(last.rps) : 'server default'}
              onChange={(e) => setRps(e.target.value)}
              disabled={creating}
              aria-invalid={rpsError ? true : undefined}
              aria-describedby={`${id}-rps-hint`}
              data-testid="scan-rps"
            />
            <small id={`${id}-rps-hint`} className={rpsError ? 'field-error' : 'field-hint'}>
              {rpsError ?? `0 for no cap; at most ${SCAN_PACE_LIMITS.rps.max}. Lower it for a server that slows down or limits its clients.`}
            </small>
          </div>
          <div className="field">
            <label htmlFor={`${id}-concurrency`}>Requests in flight</label>
            <input
              id={`${id}-concurrency`}
              type="number"
              inputMode="numeric"
              min={SCAN_PACE_LIMITS.concurrency.min}
              max={SCAN_PACE_LIMITS.concurrency.max}
              step={1}
              value={concurrency}
              placeholder={last?.concurrency !== null && last?.concurrency !== undefined ? String(last.concurrency) : 'server default'}
              onChange={(e) => setConcurrency(e.target.value)}
              disabled={creating}
              aria-invalid={concurrencyError ? true : undefined}
              aria-describedby={`${id}-concurrency-hint`}
              data-testid="scan-concurrency"
            />
            <small id={`${id}-concurrency-hint`} className={concurrencyError ? 'field-error' : 'field-hint'}>
              {concurrencyError ?? `From ${SCAN_PACE_LIMITS.concurrency.min} to ${SCAN_PACE_LIMITS.concurrency.max}; 1 for a server that answers one request at a time.`}
            </small>
          </div>
        </fieldset>
        <WritePolicyFields apiId={api.id} value={writePolicy} onChange={setWritePolicy} disabled={creating} />
        <p className="key-note" style={{ margin: 0 }}>
          <Icon name="lock" size={14} style={{ verticalAlign: '-2px' }} /> {mode === 'keys' ? 'Keys are' : 'Tokens, passwords and secrets are'} kept in the system
          keychain (or encrypted on a team server) and redacted from evidence, logs and reports.
        </p>
      </form>
    </Modal>
  );
}
