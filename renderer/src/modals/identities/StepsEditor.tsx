// The login requests of a login recipe or a cookie session: method, path, body (JSON as fields or
// text, a form, raw), headers and query, and with several requests the values each one extracts for
// the next ({name} in a later request).

import type { ChangeEvent, ReactElement } from 'react';
import { Icon } from '../../components/Icon';
import { SecretInput } from '../../components/SecretInput';
import { emptyStep, isSecretField, MAX_STEPS, setJsonAsText, type BodyKind, type FieldErrors, type Pair, type SourceDraft, type StepDraft } from '../../lib/identity-form';
import { EnvFlag, SelectInput, TextArea, TextInput } from './fields';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const BODY_KINDS: { value: BodyKind; label: string }[] = [
  { value: 'json', label: 'JSON' },
  { value: 'form', label: 'Form (urlencoded)' },
  { value: 'raw', label: 'Raw text' },
  { value: 'none', label: 'No body' },
];

export const SOURCE_OPTIONS: { value: SourceDraft['from']; label: string }[] = [
  { value: 'body', label: 'JSON body (pointer)' },
  { value: 'header', label: 'Response header' },
  { value: 'cookie', label: 'Set-Cookie' },
  { value: 'regex', label: 'Regular expression' },
];

export const SOURCE_VALUE_LABEL: Record<SourceDraft['from'], string> = {
  body: 'JSON pointer',
  header: 'Header name',
  cookie: 'Cookie name',
  regex: 'Pattern (first group)',
};

const SEARCHED_IN: { value: SourceDraft['in']; label: string }[] = [
  { value: 'body', label: 'The body' },
  { value: 'headers', label: 'The headers' },
];

export const SOURCE_PLACEHOLDER: Record<SourceDraft['from'], string> = {
  body: '/accessToken',
  header: 'X-Auth-Token',
  cookie: 'session',
  regex: 'token=([\\w.-]+)',
};

function Pairs({
  pairs,
  edit,
  disabled,
  what,
}: {
  pairs: Pair[];
  edit(fn: (pairs: Pair[]) => void): void;
  disabled?: boolean;
  what: string;
}): ReactElement {
  // The name and the value of field n share everything but which part they edit.
  const part = (n: number, key: keyof Pair) => ({
    'aria-label': `${what} field ${n + 1} ${key}`,
    value: pairs[n]![key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => edit((list) => void (list[n]![key] = e.target.value)),
    disabled,
  });
  const plain = (n: number, key: keyof Pair) => (
    <input type="text" {...part(n, key)} placeholder={key} spellCheck={false} autoComplete="off" data-testid={`step-field-${key}`} />
  );
  return (
    <div className="pair-list" data-testid="step-fields">
      {pairs.map((p, n) => (
        <div className="pair-row" key={n} data-testid="step-field">
          {plain(n, 'name')}
          <div>
            {isSecretField(p.name) ? <SecretInput {...part(n, 'value')} label={p.name || 'value'} testId="step-field-value" /> : plain(n, 'value')}
            <EnvFlag value={p.value} />
          </div>
          <button
            type="button"
            className="icon-button icon-button-small"
            onClick={() => edit((list) => void list.splice(n, 1))}
            disabled={disabled}
            aria-label={`Remove ${what.toLowerCase()} field ${p.name || n + 1}`}
          >
            <Icon name="x" size={14} />
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button button-ghost button-small"
        onClick={() => edit((list) => void list.push({ name: '', value: '' }))}
        disabled={disabled}
        data-testid="step-add-field"
      >
        <Icon name="plus" size={14} />
        Add field
      </button>
    </div>
  );
}

export function SourceEditor({
  label,
  source,
  edit,
  error,
  testId,
  disabled,
}: {
  label: string;
  source: SourceDraft;
  edit(fn: (s: SourceDraft) => void): void;
  error?: string;
  testId: string;
  disabled?: boolean;
}): ReactElement {
  return (
    <div className="source-row">
      <SelectInput label={label} value={source.from} options={SOURCE_OPTIONS} onChange={(v) => edit((s) => void (s.from = v))} testId={`${testId}-from`} disabled={disabled} />
      <TextInput
        label={SOURCE_VALUE_LABEL[source.from]}
        value={source.value}
        onChange={(v) => edit((s) => void (s.value = v))}
        placeholder={SOURCE_PLACEHOLDER[source.from]}
        testId={`${testId}-value`}
        error={error}
        mono
        disabled={disabled}
        hint={source.from === 'body' ? 'Empty: the whole body.' : undefined}
      />
      {source.from === 'regex' && (
        <SelectInput
          label="Searched in"
          value={source.in}
          options={SEARCHED_IN}
          onChange={(v) => edit((s) => void (s.in = v))}
          testId={`${testId}-in`}
          disabled={disabled}
        />
      )}
    </div>
  );
}

function StepEditor({
  step,
  index,
  count,
  prefix,
  errors,
  edit,
  remove,
  disabled,
}: {
  step: StepDraft;
  index: number;
  count: number;
  prefix: string;
  errors: FieldErrors;
  edit(fn: (s: StepDraft) => void): void;
  remove(): void;
  disabled?: boolean;
}): ReactElement {
  const key = `${prefix}.steps.${index}`;
  const showExtract = count > 1 || step.extract.length > 0;
  const title = count > 1 ? `Request ${index + 1} of ${count}` : 'Login request';
  return (
    <fieldset className="step-card" data-testid="step">
      <legend>{title}</legend>
      {errors[`${key}.step`] && (
        <p className="field-error" role="alert">
          {errors[`${key}.step`]}
        </p>
      )}
      <div className="step-line">
        <SelectInput
          label="Method"
          value={step.method as (typeof METHODS)[number]}
          options={METHODS.map((m) => ({ value: m, label: m }))}
          onChange={(v) =>
            edit((s) => {
              s.method = v;
              if (v === 'GET') s.bodyKind = 'none';
            })
          }
          testId="step-method"
          error={errors[`${key}.method`]}
          disabled={disabled}
        />
        <TextInput
          label="Path or URL"
          value={step.path}
          onChange={(v) => edit((s) => void (s.path = v))}
          placeholder="/auth/login"
          testId="step-path"
          error={errors[`${key}.path`]}
          hint="Relative to the API's base URL, or an absolute http(s) URL."
          mono
          disabled={disabled}
        />
        {count > 1 && (
          <button type="button" className="icon-button icon-button-small step-remove" onClick={remove} disabled={disabled} aria-label={`Remove request ${index + 1}`} data-testid="step-remove">
            <Icon name="trash" size={14} />
          </button>
        )}
      </div>
      <div className="step-body">
        <SelectInput label="Body" value={step.bodyKind} options={BODY_KINDS} onChange={(v) => edit((s) => void (s.bodyKind = v))} testId="step-body-kind" disabled={disabled} />
        {step.bodyKind === 'json' && (
          <label className="checkbox step-json-toggle">
            <input
              type="checkbox"
              checked={step.jsonAsText}
              onChange={(e) => edit((s) => setJsonAsText(s, e.target.checked))}
              disabled={disabled}
              data-testid="step-json-text"
            />
            <span>Edit the JSON as text</span>
          </label>
        )}
      </div>
      {(step.bodyKind === 'form' || (step.bodyKind === 'json' && !step.jsonAsText)) && (
        <>
          <Pairs pairs={step.fields} edit={(fn) => edit((s) => fn(s.fields))} disabled={disabled} what={step.bodyKind === 'form' ? 'Form' : 'JSON'} />
          {errors[`${key}.body`] && (
            <small className="field-error" data-testid="step-body-error">
              {errors[`${key}.body`]}
            </small>
          )}
        </>
      )}
      {step.bodyKind === 'json' && step.jsonAsText && (
        <TextArea label="JSON body" value={step.text} onChange={(v) => edit((s) => void (s.text = v))} testId="step-json" error={errors[`${key}.body`]} rows={5} placeholder='{"username": "alice", "password": "..."}' disabled={disabled} />
      )}
      {step.bodyKind === 'raw' && <TextArea label="Raw body" value={step.text} onChange={(v) => edit((s) => void (s.text = v))} testId="step-raw" error={errors[`${key}.body`]} rows={3} disabled={disabled} />}
      <details className="step-more" open={!!(step.headers || step.query || errors[`${key}.headers`] || errors[`${key}.query`])}>
        <summary>Headers and query parameters</summary>
        <div className="grid-2">
          <TextArea label="Headers" hint='One per line: "Name: value".' value={step.headers} onChange={(v) => edit((s) => void (s.headers = v))} testId="step-headers" error={errors[`${key}.headers`]} rows={2} disabled={disabled} />
          <TextArea label="Query parameters" hint='One per line: "name=value".' value={step.query} onChange={(v) => edit((s) => void (s.query = v))} testId="step-query" error={errors[`${key}.query`]} rows={2} disabled={disabled} />
        </div>
      </details>
      {showExtract && (
        <div className="extract-list" data-testid="step-extract">
          <p className="small muted" style={{ margin: 0 }}>
            Values read from this answer, used by later requests as <code>{'{name}'}</code>.
          </p>
          {errors[`${key}.extract`] && <small className="field-error">{errors[`${key}.extract`]}</small>}
          {step.extract.map((x, n) => (
            <div className="extract-row" key={n}>
              <TextInput label="Name" value={x.name} onChange={(v) => edit((s) => void (s.extract[n]!.name = v))} testId="extract-name" mono disabled={disabled} />
              <SourceEditor label="Read from" source={x.source} edit={(fn) => edit((s) => fn(s.extract[n]!.source))} testId="extract" disabled={disabled} />
              <button type="button" className="icon-button icon-button-small" onClick={() => edit((s) => void s.extract.splice(n, 1))} disabled={disabled} aria-label={`Remove extracted value ${x.name || n + 1}`}>
                <Icon name="x" size={14} />
              </button>
            </div>
          ))}
          <button
            type="button"
            className="button button-ghost button-small"
            onClick={() => edit((s) => void s.extract.push({ name: '', source: { from: 'body', value: '', in: 'body' } }))}
            disabled={disabled}
            data-testid="extract-add"
          >
            <Icon name="plus" size={14} />
            Extract a value
          </button>
        </div>
      )}
    </fieldset>
  );
}

export function StepsEditor({
  prefix,
  steps,
  errors,
  edit,
  disabled,
}: {
  prefix: 'login' | 'cookie';
  steps: StepDraft[];
  errors: FieldErrors;
  edit(fn: (steps: StepDraft[]) => void): void;
  disabled?: boolean;
}): ReactElement {
  return (
    <div className="steps" data-testid="steps">
      {errors[`${prefix}.steps`] && <small className="field-error">{errors[`${prefix}.steps`]}</small>}
      {steps.map((s, n) => (
        <StepEditor
          key={n}
          step={s}
          index={n}
          count={steps.length}
          prefix={prefix}
          errors={errors}
          edit={(fn) => edit((list) => fn(list[n]!))}
          remove={() => edit((list) => void list.splice(n, 1))}
          disabled={disabled}
        />
      ))}
      {steps.length < MAX_STEPS && (
        <div className="button-row">
          <button type="button" className="button button-ghost button-small" onClick={() => edit((list) => void list.unshift(emptyStep('GET', '')))} disabled={disabled} data-testid="steps-add-before">
            <Icon name="plus" size={14} />
            Add a request before (a CSRF token, a nonce)
          </button>
          <button type="button" className="button button-ghost button-small" onClick={() => edit((list) => void list.push(emptyStep('POST', '')))} disabled={disabled} data-testid="steps-add-after">
            <Icon name="plus" size={14} />
            Add a request after (a second factor)
          </button>
        </div>
      )}
    </div>
  );
}
