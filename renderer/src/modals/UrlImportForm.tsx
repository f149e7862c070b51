// Importing an API description from its URL (POST /api/import/url): the server fetches it (the API's own
// /openapi.json, say) under the same rules as a scan, and imports it like an uploaded file.

import { useState, type FormEvent, type ReactElement } from 'react';
import { APIS_MESSAGES } from '../../../shared/api-messages';
import { validateSpecUrl } from '../../../shared/validation';
import { importSpecUrl } from '../api/apis';
import { Alert } from '../components/Alert';
import { Field } from '../components/Field';
import { currentAuth } from '../stores/useAuthStore';
import { ImportProgress, useImportRequest, type ImportFormProps } from './useImportRequest';

/** Not in the spec: texts of the URL import form. */
export const URL_FORM_MESSAGES = {
  failed: 'Could not import the API description from this URL.',
  progress: 'Fetching and analysing the API description…',
} as const;

export function UrlImportForm(props: ImportFormProps): ReactElement {
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const { busy, error, send } = useImportRequest(props, URL_FORM_MESSAGES.failed);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const problem = validateSpecUrl(url);
    setUrlError(problem);
    if (problem) return;
    const auth = currentAuth();
    if (!auth) return;
    // The server's reason (not reachable, not a description, too large, a local address refused) is the message.
    await send(() => importSpecUrl(auth, url.trim()), { imported: (data) => APIS_MESSAGES.specUrlImported(data.api.name, data.endpoint_count) });
  };

  return (
    <form id={props.formId} className="form" onSubmit={(e) => void submit(e)} noValidate data-testid="url-form">
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
      {busy && <ImportProgress testId="url-progress" text={URL_FORM_MESSAGES.progress} />}
      <p className="muted small" style={{ margin: 0 }}>
        The server fetches the address once, within the same rules as a scan (on a team server, addresses on its own network only when
        allowed), and reads it like an uploaded file. References to other files or URLs inside it are never fetched.
      </p>
    </form>
  );
}
