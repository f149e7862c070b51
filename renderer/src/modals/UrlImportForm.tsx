// Importing an API description from its URL (POST /api/import/url): the server fetches it (the API's own
// /openapi.json, say) under the same rules as a scan, and imports it like an uploaded file.

import { useState, type FormEvent, type ReactElement } from 'react';
import { APIS_MESSAGES } from '../../../shared/api-messages';
import type { ImportData } from '../../../shared/contract';
import { validateSpecUrl } from '../../../shared/validation';
import { importSpecUrl } from '../api/apis';
import { Alert } from '../components/Alert';
import { Field } from '../components/Field';
import { ProgressBar } from '../components/ProgressBar';
import { currentAuth } from '../stores/useAuthStore';
import { reasonOf } from './shared';

/** Not in the spec: texts of the URL import form. */
export const URL_FORM_MESSAGES = {
  failed: 'Could not import the API description from this URL.',
  progress: 'Fetching and analysing the API description…',
} as const;

export function UrlImportForm({
  formId,
  onBusy,
  onImported,
}: {
  formId: string;
  onBusy(busy: boolean): void;
  onImported(message: string, data: ImportData): void;
}): ReactElement {
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const problem = validateSpecUrl(url);
    setUrlError(problem);
    if (problem) return;
    const auth = currentAuth();
    if (!auth) return;
    setError(null);
    setBusy(true);
    onBusy(true);
    try {
      const res = await importSpecUrl(auth, url.trim());
      if (!res.ok) {
        // The server's reason (not reachable, not a description, too large, a local address refused) is the message.
        setError(res.message || res.errors[0]?.message || URL_FORM_MESSAGES.failed);
        return;
      }
      if (!res.data) {
        setError(res.message || URL_FORM_MESSAGES.failed);
        return;
      }
      onImported(res.message || APIS_MESSAGES.specUrlImported(res.data.api.name, res.data.endpoint_count), res.data);
    } catch (err) {
      setError(reasonOf(err, URL_FORM_MESSAGES.failed));
    } finally {
      setBusy(false);
      onBusy(false);
    }
  };

  return (
    <form id={formId} className="form" onSubmit={(e) => void submit(e)} noValidate data-testid="url-form">
      {error && (
        <Alert kind="error" testId="url-error">
          {error}
        </Alert>
      )}
      <Field
        label="URL of the API description"
        hint="OpenAPI or Swagger (JSON or YAML), a Postman collection, a HAR file or a GraphQL schema — often the API's own /openapi.json."
        error={urlError}
        testId="url-input"
      >
        {(p) => (
          <input
            {...p}
            type="url"
            placeholder="https://api.example.com/openapi.json"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            disabled={busy}
            spellCheck={false}
            autoComplete="off"
            data-testid="url-input"
          />
        )}
      </Field>
      {busy && (
        <div data-testid="url-progress">
          <ProgressBar label="Import progress" />
          <div className="progress-label">
            <span>{URL_FORM_MESSAGES.progress}</span>
          </div>
        </div>
      )}
      <p className="muted small" style={{ margin: 0 }}>
        The server fetches the address once, within the same rules as a scan (on a team server, addresses on its own network only when
        allowed), and reads it like an uploaded file. References to other files or URLs inside it are never fetched.
      </p>
    </form>
  );
}
