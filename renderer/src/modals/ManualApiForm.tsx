// Typing an API by hand (POST /api/apis/manual): a name, a base URL and one endpoint per line,
// "METHOD /path optional summary". The server checks each line and names the one it refuses.

import { useState, type FormEvent, type ReactElement } from 'react';
import { isHttpUrl } from '../../../shared/validation';
import { createManualApi } from '../api/apis';
import { Alert } from '../components/Alert';
import { Field } from '../components/Field';
import { currentAuth } from '../stores/useAuthStore';
import { noticeStore } from '../stores/useNoticeStore';
import { parseEndpointLines } from '../lib/manual-api';
import { reasonOf } from './shared';

/** Not in the spec: texts of the hand-typed API form. */
export const MANUAL_API_MESSAGES = {
  nameRequired: 'API name is required.',
  baseUrlInvalid: 'Base URL must be an http:// or https:// address.',
  endpointsRequired: 'Add at least one endpoint.',
  lineInvalid: (n: number) => `Line ${n}: write the method, then the path (for example: GET /users/{id}).`,
  failed: 'Could not create the API.',
} as const;

export function ManualApiForm({
  formId,
  onBusy,
  onCreated,
}: {
  formId: string;
  onBusy(busy: boolean): void;
  onCreated(): void;
}): ReactElement {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [lines, setLines] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const next: Record<string, string> = {};
    if (!name.trim()) next.name = MANUAL_API_MESSAGES.nameRequired;
    if (!isHttpUrl(baseUrl.trim())) next.base_url = MANUAL_API_MESSAGES.baseUrlInvalid;
    const parsed = parseEndpointLines(lines);
    if (parsed.badLine !== null) next.endpoints = MANUAL_API_MESSAGES.lineInvalid(parsed.badLine);
    else if (parsed.endpoints.length === 0) next.endpoints = MANUAL_API_MESSAGES.endpointsRequired;
    setErrors(next);
    if (Object.keys(next).length) return;
    const auth = currentAuth();
    if (!auth) return;
    setError(null);
    setSaving(true);
    onBusy(true);
    try {
      const res = await createManualApi(auth, { name: name.trim(), base_url: baseUrl.trim(), endpoints: parsed.endpoints });
      if (!res.ok) {
        setError(res.errors[0]?.message ?? (res.message || MANUAL_API_MESSAGES.failed));
        return;
      }
      noticeStore.getState().show('success', res.message || `API "${name.trim()}" created.`);
      onCreated();
    } catch (err) {
      setError(reasonOf(err, MANUAL_API_MESSAGES.failed));
    } finally {
      setSaving(false);
      onBusy(false);
    }
  };

  return (
    <form id={formId} className="form" onSubmit={(e) => void submit(e)} noValidate data-testid="manual-api-form">
      {error && (
        <Alert kind="error" testId="manual-error">
          {error}
        </Alert>
      )}
      <div className="form-grid">
        <Field label="API name" error={errors.name} testId="manual-name">
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} disabled={saving} data-testid="manual-name" />}
        </Field>
        <Field label="Base URL" error={errors.base_url} testId="manual-base-url">
          {(p) => (
            <input {...p} type="url" placeholder="https://api.example.com/v1" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} disabled={saving} spellCheck={false} data-testid="manual-base-url" />
          )}
        </Field>
      </div>
      <Field label="Endpoints" hint="One per line: the method, the path, then an optional summary. GRAPHQL /graphql adds a GraphQL endpoint, whose operations a scan learns by introspection." error={errors.endpoints} testId="manual-endpoints">
        {(p) => (
          <textarea
            {...p}
            rows={6}
            className="mono"
            placeholder={'GET /users/{id} A user\nDELETE /users/{id}\nPOST /orders Place an order\nGRAPHQL /graphql'}
            value={lines}
            onChange={(e) => setLines(e.target.value)}
            disabled={saving}
            spellCheck={false}
            data-testid="manual-endpoints"
          />
        )}
      </Field>
    </form>
  );
}
