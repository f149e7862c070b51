// One identity of Configure Scan: its name and role, how its credential is obtained (static token,
// login request, OAuth2, cookie session, command), where the credential goes, and its Test button
// with the answer inline.

import { useId, useRef, type ReactElement } from 'react';
import type { IdentityDefaults } from '../../../../shared/contract';
import type { IdentityRole, ObtainKind, OAuth2GrantKind } from '../../../../shared/identities';
import { IDENTITY_MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/Alert';
import { Icon } from '../../components/Icon';
import { draftEnvReferences, shownFieldKeys, type CsrfFrom, type FieldErrors, type IdentityDraft, type PlaceKind } from '../../lib/identity-form';
import { SelectInput, TextInput } from './fields';
import { SOURCE_VALUE_LABEL, SourceEditor, StepsEditor } from './StepsEditor';
import type { TestState } from './useIdentitiesForm';
import { CodeText, LoginAnswerQuote, withoutInlineAnswer } from '../../components/LoginAnswerQuote';

export const ROLE_OPTIONS: { value: IdentityRole; label: string }[] = [
  { value: 'user', label: 'User' },
  { value: 'privileged', label: 'Privileged (admin)' },
  { value: 'lower', label: 'Lower-privileged' },
];

const KIND_LABELS: Record<ObtainKind, string> = {
  static: 'Static token',
  login: 'Log in with a request',
  oauth2: 'OAuth2',
  cookie: 'Cookie session',
  command: 'Command (its output is the token)',
};

const GRANTS: { value: OAuth2GrantKind; label: string }[] = [
  { value: 'client_credentials', label: 'Client credentials' },
  { value: 'password', label: 'Password' },
  { value: 'refresh_token', label: 'Refresh token' },
];

const CLIENT_AUTH: { value: IdentityDraft['oauth2']['client_auth']; label: string }[] = [
  { value: '', label: 'HTTP Basic (default)' },
  { value: 'body', label: 'In the form body' },
];

const PLACE_LABELS: Record<Exclude<PlaceKind, 'declared'>, string> = {
  bearer: 'Bearer token in Authorization',
  basic: 'HTTP Basic in Authorization (user:password)',
  header: 'A header, with a template',
  query: 'A query parameter',
  cookie: 'A cookie',
};

const CSRF_FROM: { value: CsrfFrom; label: string }[] = [
  { value: 'cookie', label: 'A cookie' },
  { value: 'header', label: 'A response header' },
  { value: 'body', label: 'The JSON body (pointer)' },
  { value: 'regex', label: 'A regular expression' },
];

/**
 * The input a failure points at ("login.token", "login.steps.0.body", "oauth2.password", "token"), inside
 * one identity's card: the first secret of a request body (the password, usually), else its first field.
 */
export function fieldElement(card: HTMLElement, field: string): HTMLElement | null {
  const q = (sel: string, root: ParentNode = card) => root.querySelector<HTMLElement>(sel);
  if (field === 'token') return q('[data-testid="identity-token"]');
  if (field === 'login.token') return q('[data-testid="token-source-value"]');
  if (field === 'place') return q('[data-testid="identity-place"]');
  const oauth = /^oauth2\.(\w+)$/.exec(field);
  if (oauth) return q(`[data-testid="oauth-${oauth[1]!.replace(/_/g, '-')}"]`);
  const step = /^(?:login|cookie)\.steps\.(\d+)\.(body|path|extract)$/.exec(field);
  if (step) {
    const block = card.querySelectorAll<HTMLElement>('[data-testid="step"]')[Number(step[1])];
    if (!block) return null;
    if (step[2] === 'path') return q('[data-testid="step-path"]', block);
    if (step[2] === 'extract') return q('[data-testid="extract-value"]', block);
    return q('input[type="password"][data-testid="step-field-value"]', block) ?? q('[data-testid="step-field-value"], [data-testid="step-json"], [data-testid="step-raw"]', block);
  }
  return null;
}

function TestResult({ state, onEdit, onUsePointer }: { state: TestState | undefined; onEdit(field: string): void; onUsePointer(pointer: string): void }): ReactElement | null {
  if (!state) return null;
  if (state.kind === 'running')
    return (
      <p className="muted small" role="status" data-testid="identity-test-running">
        {IDENTITY_MESSAGES.testing}
      </p>
    );
  if (state.kind === 'error')
    return (
      <Alert kind="error" testId="identity-test-result">
        <span data-testid="identity-test-message">{state.message}</span>
      </Alert>
    );
  const d = state.data;
  return (
    <div className={`identity-test ${d.ok ? 'identity-test-ok' : 'identity-test-fail'}`} role="status" data-testid="identity-test-result" data-ok={d.ok}>
      <p className="identity-test-head">
        <Icon name={d.ok ? 'check' : 'alert'} size={16} />
        <strong>{d.ok ? IDENTITY_MESSAGES.testWorks : IDENTITY_MESSAGES.testFailed}</strong>
        {d.verified_as && <span data-testid="identity-test-verified">{IDENTITY_MESSAGES.verifiedAs(d.verified_as)}</span>}
      </p>
      <p className="identity-test-message" data-testid="identity-test-message">
        <CodeText text={d.ok ? d.message : withoutInlineAnswer(d.message, d.answer)} />
      </p>
      {!d.ok && d.answer && <LoginAnswerQuote answer={d.answer} />}
      {!d.ok && (d.candidates?.length || d.field) ? (
        <div className="identity-test-actions" data-testid="identity-test-actions">
          {(d.candidates ?? []).map((p) => (
            <button key={p} type="button" className="button button-secondary button-small" onClick={() => onUsePointer(p)} data-testid="identity-use-pointer" data-pointer={p}>
              Use <code>{p}</code> and test again
            </button>
          ))}
          {d.field && (
            <button type="button" className="button button-ghost button-small" onClick={() => onEdit(d.field!)} data-testid="identity-edit-field">
              <Icon name="edit" size={14} />
              {IDENTITY_MESSAGES.editField}
            </button>
          )}
        </div>
      ) : null}
      <dl className="identity-test-facts">
        {d.token && (
          <div>
            <dt>Credential</dt>
            <dd className="mono" data-testid="identity-test-token">
              {d.token}
            </dd>
          </div>
        )}
        {d.cookies.length > 0 && (
          <div>
            <dt>Cookies</dt>
            <dd className="mono" data-testid="identity-test-cookies">
              {d.cookies.join(', ')}
            </dd>
          </div>
        )}
        {(d.token || !d.cookies.length) && (
          <div>
            <dt>Goes in</dt>
            <dd>{d.placement}</dd>
          </div>
        )}
      </dl>
      {d.steps.length > 0 && (
        <ol className="identity-test-steps mono small" data-testid="identity-test-steps">
          {d.steps.map((s, n) => (
            <li key={n}>{s}</li>
          ))}
        </ol>
      )}
    </div>
  );
}

export function IdentityEditor({
  draft,
  index,
  defaults,
  errors,
  test,
  update,
  onRemove,
  onTest,
  onUsePointer,
  canRemove,
  disabled,
}: {
  draft: IdentityDraft;
  index: number;
  defaults: IdentityDefaults | null;
  errors: FieldErrors;
  test: TestState | undefined;
  update(edit: (d: IdentityDraft) => void): void;
  onRemove(): void;
  onTest(): void;
  /** Sets the token pointer (a candidate the failed test named) and tests again. */
  onUsePointer(pointer: string): void;
  canRemove: boolean;
  disabled?: boolean;
}): ReactElement {
  const id = useId();
  const card = useRef<HTMLElement>(null);
  const shown = shownFieldKeys(draft);
  const focusField = (field: string) => {
    const el = card.current ? fieldElement(card.current, field) : null;
    el?.scrollIntoView({ block: 'center' });
    el?.focus();
  };
  const other = Object.entries(errors).filter(([k]) => !shown.has(k));
  const kinds = (Object.keys(KIND_LABELS) as ObtainKind[]).filter((k) => k !== 'command' || defaults?.commands_allowed || draft.kind === 'command');
  const declared = IDENTITY_MESSAGES.declaredPlacement(defaults?.placement ?? 'a bearer token in Authorization unless the spec says otherwise');
  const placeOptions: { value: PlaceKind; label: string }[] = [
    { value: 'declared', label: declared },
    ...(Object.keys(PLACE_LABELS) as Exclude<PlaceKind, 'declared'>[]).map((k) => ({ value: k, label: PLACE_LABELS[k] })),
  ];
  const o = draft.oauth2;
  const csrf = draft.cookie.csrf;
  const title = draft.name.trim() || `Identity ${index + 1}`;
  // Only what would be sent counts: fields of another way of logging in do not block the Test button.
  const placeholders = draftEnvReferences([draft]).length > 0;

  return (
    <section ref={card} className="identity-card" aria-labelledby={`${id}-title`} data-testid="identity-card" data-identity-name={draft.name}>
      <div className="identity-card-head">
        <h3 id={`${id}-title`}>
          <Icon name={draft.role === 'privileged' ? 'shieldCheck' : 'user'} size={16} />
          {title}
        </h3>
        <button type="button" className="button button-ghost button-small" onClick={onRemove} disabled={disabled || !canRemove} aria-label={`Remove ${title}`} data-testid="identity-remove">
          <Icon name="trash" size={14} />
          Remove
        </button>
      </div>
      {other.length > 0 && (
        <ul className="plain-list field-error" data-testid="identity-errors">
          {other.map(([k, m]) => (
            <li key={k}>{m}</li>
          ))}
        </ul>
      )}
      <div className="grid-3">
        <TextInput label="Name" value={draft.name} onChange={(v) => update((d) => void (d.name = v))} testId="identity-name" error={errors.name} disabled={disabled} />
        <SelectInput label="Role" value={draft.role} options={ROLE_OPTIONS} onChange={(v) => update((d) => void (d.role = v))} testId="identity-role" error={errors.role} disabled={disabled} />
        <SelectInput
          label="How the credential is obtained"
          value={draft.kind}
          options={kinds.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
          onChange={(v) => update((d) => void (d.kind = v))}
          testId="identity-kind"
          disabled={disabled}
        />
      </div>

      {draft.kind === 'static' && (
        <TextInput label="Token or key" value={draft.token} onChange={(v) => update((d) => void (d.token = v))} testId="identity-token" error={errors.token} secret disabled={disabled} />
      )}

      {draft.kind === 'login' && (
        <>
          <StepsEditor prefix="login" steps={draft.login.steps} errors={errors} edit={(fn) => update((d) => fn(d.login.steps))} disabled={disabled} />
          <SourceEditor
            label={draft.login.steps.length > 1 ? 'Token in the last answer' : 'Where the token is'}
            source={draft.login.token}
            edit={(fn) => update((d) => fn(d.login.token))}
            error={errors['login.token']}
            testId="token-source"
            disabled={disabled}
          />
        </>
      )}

      {draft.kind === 'oauth2' && (
        <div className="grid-2">
          <SelectInput label="Grant" value={o.grant} options={GRANTS} onChange={(v) => update((d) => void (d.oauth2.grant = v))} testId="oauth-grant" error={errors['oauth2.grant']} disabled={disabled} />
          <TextInput
            label="Token URL"
            value={o.token_url}
            onChange={(v) => update((d) => void (d.oauth2.token_url = v))}
            testId="oauth-token-url"
            error={errors['oauth2.token_url']}
            hint={defaults?.token_url ? 'From the API spec.' : 'The spec declares none: give the token endpoint.'}
            mono
            disabled={disabled}
          />
          <TextInput
            label={o.grant === 'client_credentials' ? 'Client ID' : 'Client ID (optional)'}
            value={o.client_id}
            onChange={(v) => update((d) => void (d.oauth2.client_id = v))}
            testId="oauth-client-id"
            error={errors['oauth2.client_id']}
            disabled={disabled}
          />
          <TextInput label="Client secret (optional)" value={o.client_secret} onChange={(v) => update((d) => void (d.oauth2.client_secret = v))} testId="oauth-client-secret" error={errors['oauth2.client_secret']} secret disabled={disabled} />
          {o.grant === 'password' && (
            <>
              <TextInput label="Username" value={o.username} onChange={(v) => update((d) => void (d.oauth2.username = v))} testId="oauth-username" error={errors['oauth2.username']} disabled={disabled} />
              <TextInput label="Password" value={o.password} onChange={(v) => update((d) => void (d.oauth2.password = v))} testId="oauth-password" error={errors['oauth2.password']} secret disabled={disabled} />
            </>
          )}
          {o.grant === 'refresh_token' && (
            <TextInput label="Refresh token" value={o.refresh_token} onChange={(v) => update((d) => void (d.oauth2.refresh_token = v))} testId="oauth-refresh-token" error={errors['oauth2.refresh_token']} secret disabled={disabled} />
          )}
          <TextInput label="Scope (optional)" value={o.scope} onChange={(v) => update((d) => void (d.oauth2.scope = v))} testId="oauth-scope" error={errors['oauth2.scope']} disabled={disabled} />
          <SelectInput
            label="Client authentication"
            value={o.client_auth}
            options={CLIENT_AUTH}
            onChange={(v) => update((d) => void (d.oauth2.client_auth = v))}
            testId="oauth-client-auth"
            error={errors['oauth2.client_auth']}
            disabled={disabled}
          />
        </div>
      )}

      {draft.kind === 'cookie' && (
        <>
          <StepsEditor prefix="cookie" steps={draft.cookie.steps} errors={errors} edit={(fn) => update((d) => fn(d.cookie.steps))} disabled={disabled} />
          <label className="checkbox">
            <input type="checkbox" checked={csrf.enabled} onChange={(e) => update((d) => void (d.cookie.csrf.enabled = e.target.checked))} disabled={disabled} data-testid="csrf-enabled" />
            <span>Send a CSRF token with every request</span>
          </label>
          {csrf.enabled && (
            <div className="grid-3">
              <SelectInput label="CSRF token from" value={csrf.from} options={CSRF_FROM} onChange={(v) => update((d) => void (d.cookie.csrf.from = v))} testId="csrf-from" disabled={disabled} />
              <TextInput
                label={SOURCE_VALUE_LABEL[csrf.from]}
                value={csrf.value}
                onChange={(v) => update((d) => void (d.cookie.csrf.value = v))}
                testId="csrf-value"
                error={errors['cookie.csrf']}
                mono
                disabled={disabled}
              />
              <TextInput label="Sent in the header" value={csrf.header} onChange={(v) => update((d) => void (d.cookie.csrf.header = v))} testId="csrf-header" placeholder="X-CSRF-Token" mono disabled={disabled} />
            </div>
          )}
        </>
      )}

      {draft.kind === 'command' && (
        <TextInput
          label="Command"
          value={draft.command}
          onChange={(v) => update((d) => void (d.command = v))}
          testId="identity-command"
          error={errors.command}
          hint="Run by the desktop app; what it prints is the token. Never run on a team server."
          mono
          disabled={disabled}
        />
      )}

      {draft.kind === 'cookie' ? (
        <p className="small muted" style={{ margin: 0 }} data-testid="cookie-place-note">
          The session&apos;s cookies (and its CSRF token) go on every request the scan makes as this identity.
        </p>
      ) : (
        <div className={`place-row${draft.place.kind === 'declared' ? ' place-row-declared' : ''}`}>
          <SelectInput label="Where the credential goes" value={draft.place.kind} options={placeOptions} onChange={(v) => update((d) => void (d.place.kind = v))} testId="identity-place" error={errors.place} disabled={disabled} />
          {draft.place.kind === 'header' && (
            <>
              <TextInput label="Header" value={draft.place.header} onChange={(v) => update((d) => void (d.place.header = v))} testId="place-header" mono disabled={disabled} />
              <TextInput
                label="Value"
                value={draft.place.value}
                onChange={(v) => update((d) => void (d.place.value = v))}
                testId="place-value"
                placeholder={draft.place.header.toLowerCase() === 'authorization' ? 'Bearer {token}' : '{token}'}
                hint="{token} marks where the credential goes."
                mono
                disabled={disabled}
              />
            </>
          )}
          {draft.place.kind === 'query' && (
            <TextInput label="Parameter" value={draft.place.query} onChange={(v) => update((d) => void (d.place.query = v))} testId="place-query" mono disabled={disabled} />
          )}
          {draft.place.kind === 'cookie' && (
            <TextInput label="Cookie" value={draft.place.cookie} onChange={(v) => update((d) => void (d.place.cookie = v))} testId="place-cookie" mono disabled={disabled} />
          )}
        </div>
      )}

      <div className="identity-test-row">
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={onTest}
          disabled={disabled || test?.kind === 'running' || placeholders}
          title={placeholders ? 'Fill in the placeholders first.' : undefined}
          data-testid="identity-test"
        >
          <Icon name="play" size={14} />
          {test?.kind === 'running' ? IDENTITY_MESSAGES.testing : 'Test'}
        </button>
        <span className="muted small">Logs in against the API now and asks who it is.</span>
      </div>
      <TestResult state={test} onEdit={focusField} onUsePointer={onUsePointer} />
    </section>
  );
}
