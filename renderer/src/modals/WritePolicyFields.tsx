// Configure Scan's write policy (issue 28 item 3): only the scan's own objects, or existing ones too
// on a disposable instance, with the operations that look destructive (the server tells which) to
// allow one by one; a notice when the API is local and has routes that wipe data (issue 31 item 6);
// and the scan's seed.

import { useId, type ReactElement } from 'react';
import { SCAN_SEED_MAX } from '../../../shared/constants';
import type { WritesSetting } from '../../../shared/identities';
import { WRITE_POLICY_TEXT } from '../../../shared/write-policy';
import type { ScanWrites } from '../api/scans';
import { Alert } from '../components/Alert';
import { useWritePolicy } from './useWritePolicy';

export interface WritePolicyValue {
  writes: WritesSetting;
  /** Operations ticked under "Operations that look destructive" ("GET /createdb"). */
  allowed: string[];
  /** The seed as typed; empty: a new one. */
  seed: string;
}

export const DEFAULT_WRITE_POLICY: WritePolicyValue = { writes: 'created', allowed: [], seed: '' };

/** The seed's error, or null when it is empty or a whole number in range. */
export function seedError(text: string): string | null {
  if (!text.trim()) return null;
  const n = Number(text);
  return /^\s*\d+\s*$/.test(text) && Number.isInteger(n) && n >= 0 && n <= SCAN_SEED_MAX ? null : WRITE_POLICY_TEXT.seedInvalid;
}

/** The create request's fields for a policy (only what differs from the defaults). */
export function writesRequest(v: WritePolicyValue): ScanWrites {
  return {
    ...(v.writes === 'existing' ? { allow_existing_objects: true, ...(v.allowed.length ? { destructive_operations: v.allowed } : {}) } : {}),
    ...(v.seed.trim() && !seedError(v.seed) ? { seed: Number(v.seed) } : {}),
  };
}

export function WritePolicyFields({
  apiId,
  value,
  onChange,
  disabled,
}: {
  apiId: string;
  value: WritePolicyValue;
  onChange(next: WritePolicyValue): void;
  disabled: boolean;
}): ReactElement {
  const id = useId();
  const policy = useWritePolicy(apiId);

  const operations = policy?.operations ?? [];
  const wipes = operations.filter((o) => o.kind === 'wipe');
  const calledWipes = value.writes === 'existing' ? wipes.filter((o) => value.allowed.includes(o.operation)).map((o) => o.operation) : [];
  const seedProblem = seedError(value.seed);
  const toggle = (operation: string, on: boolean) =>
    onChange({ ...value, allowed: on ? [...value.allowed.filter((o) => o !== operation), operation] : value.allowed.filter((o) => o !== operation) });

  return (
    <div className="write-policy" data-testid="write-policy">
      <fieldset className="radio-cards write-policy-choice">
        <legend>{WRITE_POLICY_TEXT.legend}</legend>
        {(['created', 'existing'] as const).map((w) => (
          <label key={w} className="radio-card">
            <input type="radio" name={`${id}-writes`} checked={value.writes === w} onChange={() => onChange({ ...value, writes: w })} disabled={disabled} data-testid={`writes-${w}`} />
            <span>
              <strong>{w === 'created' ? WRITE_POLICY_TEXT.created : WRITE_POLICY_TEXT.existing}</strong>
              <span>{w === 'created' ? WRITE_POLICY_TEXT.createdHint : WRITE_POLICY_TEXT.existingHint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {policy?.local && wipes.length > 0 && (
        <Alert kind={calledWipes.length ? 'error' : 'info'} testId="local-wipe-notice">
          {calledWipes.length ? WRITE_POLICY_TEXT.localWipeCalled(calledWipes) : WRITE_POLICY_TEXT.localWipeSkipped(wipes.length)}
        </Alert>
      )}
      {value.writes === 'existing' && policy && (
        <fieldset className="destructive-list" data-testid="destructive-list">
          <legend>{WRITE_POLICY_TEXT.destructiveLegend}</legend>
          {operations.length === 0 ? (
            <p className="muted small">{WRITE_POLICY_TEXT.noneDestructive}</p>
          ) : (
            <>
              <p className="field-hint">{WRITE_POLICY_TEXT.destructiveHint}</p>
              <ul className="plain-list">
                {operations.map((o) => (
                  <li key={o.operation}>
                    <label className="checkbox">
                      <input
                        type="checkbox"
                        checked={value.allowed.includes(o.operation)}
                        onChange={(e) => toggle(o.operation, e.target.checked)}
                        disabled={disabled}
                        data-testid="destructive-operation"
                        data-operation={o.operation}
                      />
                      <span>
                        <code>{o.operation}</code> <span className="muted small">{o.reason}.</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </>
          )}
        </fieldset>
      )}
      <div className="field">
        <label htmlFor={`${id}-seed`}>{WRITE_POLICY_TEXT.seed}</label>
        <input
          id={`${id}-seed`}
          type="text"
          inputMode="numeric"
          value={value.seed}
          onChange={(e) => onChange({ ...value, seed: e.target.value })}
          disabled={disabled}
          aria-invalid={seedProblem ? true : undefined}
          aria-describedby={`${id}-seed-hint`}
          autoComplete="off"
          spellCheck={false}
          data-testid="scan-seed"
        />
        <small id={`${id}-seed-hint`} className={seedProblem ? 'field-error' : 'field-hint'}>
          {seedProblem ?? WRITE_POLICY_TEXT.seedHint}
        </small>
      </div>
    </div>
  );
}
