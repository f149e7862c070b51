// Importing a live GraphQL endpoint (POST /api/import/graphql): its URL, an optional name, and an
// optional credential sent in a header while the server introspects it. The credential becomes a
// one-off identity of the Configure Scan shape and is never stored.

import { useState, type FormEvent, type ReactElement } from 'react';
import { APIS_MESSAGES } from '../../../shared/api-messages';
import type { GraphqlImportRequest } from '../../../shared/contract';
import { validateGraphqlUrl } from '../../../shared/validation';
import { importGraphqlEndpoint } from '../api/apis';
import { Alert } from '../components/Alert';
import { Field } from '../components/Field';
import { SecretInput } from '../components/SecretInput';
import { credentialIdentity, isHeaderName } from '../lib/graphql-import';
import { currentAuth } from '../stores/useAuthStore';
import { ImportProgress, useImportRequest, type ImportFormProps } from './useImportRequest';

/** Not in the spec: texts of the GraphQL endpoint form. */
export const GRAPHQL_FORM_MESSAGES = {
  headerInvalid: 'Header must be a header name, like Authorization or X-API-Key.',
  failed: 'Could not import the GraphQL endpoint.',
  progress: 'Introspecting the GraphQL endpoint…',
} as const;

export function GraphqlEndpointForm(props: ImportFormProps): ReactElement {
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [token, setToken] = useState('');
  const [header, setHeader] = useState('Authorization');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, error, send } = useImportRequest(props, GRAPHQL_FORM_MESSAGES.failed);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const next: Record<string, string> = {};
    const urlProblem = validateGraphqlUrl(url);
    if (urlProblem) next.url = urlProblem;
    if (token.trim() && !isHeaderName(header.trim())) next.header = GRAPHQL_FORM_MESSAGES.headerInvalid;
    setErrors(next);
    if (Object.keys(next).length) return;
    const auth = currentAuth();
    if (!auth) return;
    const body: GraphqlImportRequest = { url: url.trim(), ...(name.trim() ? { name: name.trim() } : {}), identity: credentialIdentity(token, header) };
    await send(() => importGraphqlEndpoint(auth, body), {
      imported: (data) => APIS_MESSAGES.graphqlImported(data.api.name, data.endpoint_count),
      refused: (res) => {
        const urlError = res.errors.find((x) => x.field === 'url');
        if (urlError) setErrors({ url: urlError.message });
        return res.errors[0]?.message;
      },
    });
  };

  return (
    <form id={props.formId} className="form" onSubmit={(e) => void submit(e)} noValidate data-testid="graphql-form">
      {error && (
        <Alert kind="error" testId="graphql-error">
          {error}
        </Alert>
      )}
      <Field label="GraphQL endpoint URL" error={errors.url} testId="graphql-url">
        {(p) => (
          <input
            {...p}
            type="url"
            placeholder="https://api.example.com/graphql"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            disabled={busy}
            spellCheck={false}
            autoComplete="off"
            data-testid="graphql-url"
          />
        )}
      </Field>
      <Field label="API name (optional)" hint="Default: the endpoint's host name." testId="graphql-name">
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} disabled={busy} data-testid="graphql-name" />}
      </Field>
      <div className="form-grid">
        <Field label="Token (optional)" hint="When introspection needs credentials. Used once, never stored." testId="graphql-token">
          {(p) => <SecretInput {...p} label="token" value={token} onChange={(e) => setToken(e.target.value)} disabled={busy} testId="graphql-token" />}
        </Field>
        <Field label="Sent in header" hint={header.trim().toLowerCase() === 'authorization' ? 'As "Bearer <token>".' : 'As the token itself.'} error={errors.header} testId="graphql-header">
          {(p) => <input {...p} value={header} onChange={(e) => setHeader(e.target.value)} disabled={busy} spellCheck={false} data-testid="graphql-header" />}
        </Field>
      </div>
      {busy && <ImportProgress testId="graphql-progress" text={GRAPHQL_FORM_MESSAGES.progress} />}
      <p className="muted small" style={{ margin: 0 }}>
        The server sends the standard introspection query to the endpoint, within the same scope rules as a scan, and turns each query,
        mutation and subscription into an operation you can scan.
      </p>
    </form>
  );
}
