// Configure Scan's Identities step: the list of named identities, whether the scan may register its
// own test users, the cross-user hint, and the YAML export and import.

import { useId, useState, type ReactElement } from 'react';
import { SCAN_SEED_MAX } from '../../../../shared/constants';
import { IDENTITY_MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/Alert';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { MAX_IDENTITIES } from '../../lib/identity-form';
import { IdentityEditor } from './IdentityEditor';
import type { IdentitiesForm } from './useIdentitiesForm';
import { ExportPanel, ImportPanel } from './YamlPanels';
import type { ScanConfig } from '../../../../shared/identities';
import type { WritePolicyValue } from '../WritePolicyFields';

export function IdentitiesStep({
  form,
  apiName,
  disabled,
  policy,
  onImportPolicy,
}: {
  form: IdentitiesForm;
  apiName: string;
  disabled?: boolean;
  /** Configure Scan's write policy and seed: exported with the identities, and filled in from an imported file. */
  policy?: WritePolicyValue;
  onImportPolicy?(config: ScanConfig): void;
}): ReactElement {
  const [panel, setPanel] = useState<'export' | 'import' | null>(null);
  const [imported, setImported] = useState<number | null>(null);
  const hintId = useId();

  if (form.defaults.kind === 'loading' && form.drafts.length === 0) {
    return (
      <div className="loading-block" data-testid="identities-loading">
        <Spinner label="Reading the API's sign-in details" />
      </div>
    );
  }
  const defaults = form.defaults.kind === 'ready' ? form.defaults.value : null;
  const users = form.drafts.filter((d) => d.role === 'user').length;
  const signupOn = form.signup !== 'off';
  const signupOperation = typeof form.signup === 'object' ? form.signup.operation : defaults?.signup_operation;

  return (
    <div className="identities" data-testid="identities-step">
      {form.defaults.kind === 'error' && (
        <Alert kind="info" testId="identity-defaults-error">
          Could not read the API&apos;s sign-in details ({form.defaults.message}): fill in the fields yourself.
        </Alert>
      )}
      <p className="small muted identities-lead">
        Who the scan speaks as. <strong>Users</strong> of the same role are compared for object-level access (BOLA); a{' '}
        <strong>lower-privileged</strong> identity is tried on the functions of <strong>privileged</strong> ones (BFLA). Requests without any
        credential are always tried too.
      </p>

      <div className="toolbar identities-toolbar">
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={form.add}
          disabled={disabled || form.drafts.length >= MAX_IDENTITIES}
          data-testid="identity-add"
        >
          <Icon name="plus" size={14} />
          Add identity
        </button>
        <span className="spacer" />
        <button
          type="button"
          className="button button-ghost button-small"
          aria-expanded={panel === 'import'}
          onClick={() => setPanel(panel === 'import' ? null : 'import')}
          disabled={disabled}
          data-testid="yaml-import-open"
        >
          <Icon name="upload" size={14} />
          Import YAML
        </button>
        <button
          type="button"
          className="button button-ghost button-small"
          aria-expanded={panel === 'export'}
          onClick={() => {
            if (panel !== 'export') form.check();
            setPanel(panel === 'export' ? null : 'export');
          }}
          disabled={disabled || form.drafts.length === 0}
          data-testid="yaml-export-open"
        >
          <Icon name="download" size={14} />
          Export YAML
        </button>
      </div>

      {panel === 'export' && <ExportPanel config={form.config && policy ? withPolicy(form.config, policy) : form.config} apiName={apiName} onClose={() => setPanel(null)} />}
      {panel === 'import' && (
        <ImportPanel
          onImport={(config) => {
            form.importConfig(config);
            onImportPolicy?.(config);
            setImported(config.identities.length);
            setPanel(null);
          }}
          onClose={() => setPanel(null)}
        />
      )}
      {imported !== null && panel === null && (
        <Alert kind="success" testId="yaml-import-success">
          {IDENTITY_MESSAGES.imported(imported)}
        </Alert>
      )}

      {form.envNames.length > 0 && (
        <Alert kind="error" testId="env-refs">
          {IDENTITY_MESSAGES.fillInBlock(form.envNames)}
        </Alert>
      )}
      {form.general.length > 0 && (
        <Alert kind="error" testId="identities-errors">
          <ul className="plain-list">
            {form.general.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </Alert>
      )}

      <div className="identity-list">
        {form.drafts.map((d, n) => (
          <IdentityEditor
            key={d.id}
            draft={d}
            index={n}
            defaults={defaults}
            errors={form.errors[d.id] ?? {}}
            test={form.tests[d.id]}
            update={(edit) => form.update(d.id, edit)}
            onRemove={() => form.remove(d.id)}
            onTest={() => void form.test(d.id)}
            onUsePointer={(pointer) =>
              form.editAndTest(d.id, (draft) => {
                draft.login.token = { ...draft.login.token, from: 'body', value: pointer };
              })
            }
            canRemove={form.drafts.length > 1}
            disabled={disabled}
          />
        ))}
      </div>

      {users < 2 && (
        <p className="identities-hint small" data-testid="identities-hint">
          <Icon name="users" size={14} />
          {signupOn && signupOperation ? IDENTITY_MESSAGES.crossUserSignupHint : IDENTITY_MESSAGES.crossUserHint}
        </p>
      )}

      <div className="signup-choice">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={signupOn}
            onChange={(e) => form.setSignup(e.target.checked ? 'auto' : 'off')}
            disabled={disabled}
            aria-describedby={hintId}
            data-testid="signup-auto"
          />
          <span>{IDENTITY_MESSAGES.signupLabel}</span>
        </label>
        <small id={hintId} className="field-hint" data-testid="signup-hint">
          {signupOperation ? IDENTITY_MESSAGES.signupFound(signupOperation) : IDENTITY_MESSAGES.signupMissing}
          {defaults ? ` On by default for ${defaults.signup_default === 'auto' ? 'local targets like this one' : 'local targets; this one is not local'}.` : ''}
          {signupOperation && !signupOn ? ` ${IDENTITY_MESSAGES.signupOff(signupOperation)}` : ''}
        </small>
      </div>
    </div>
  );
}

/** The identities' configuration with the write policy and seed Configure Scan holds, for Export YAML. */
function withPolicy(config: ScanConfig, policy: WritePolicyValue): ScanConfig {
  const seed = /^\d+$/.test(policy.seed.trim()) ? Number(policy.seed) : undefined;
  return {
    ...config,
    ...(policy.writes === 'existing' ? { writes: 'existing' as const, ...(policy.allowed.length ? { destructive: policy.allowed } : {}) } : {}),
    ...(seed !== undefined && seed <= SCAN_SEED_MAX ? { seed } : {}),
  };
}
