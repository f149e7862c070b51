// Export and import of the identities as the scan configuration YAML (`portcullis scan --config`):
// export writes secrets as ${env:NAME} unless asked to include them; import names the line and field
// of every mistake.

import { useId, useState, type ReactElement } from 'react';
import type { ConfigIssue, ScanConfig } from '../../../../shared/identities';
import { IDENTITY_MESSAGES } from '../../../../shared/messages';
import { parseScanConfigYaml, toScanConfigYaml } from '../../../../shared/scan-config-yaml';
import { saveBlob } from '../../api/reports';
import { Alert } from '../../components/Alert';
import { Icon } from '../../components/Icon';

function fileNameFor(apiName: string): string {
  const slug = apiName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return `${slug || 'api'}-scan.yaml`;
}

export function ExportPanel({ config, apiName, onClose }: { config: ScanConfig | null; apiName: string; onClose(): void }): ReactElement {
  const id = useId();
  const [include, setInclude] = useState(false);
  const [note, setNote] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const yaml = config ? toScanConfigYaml(config, { secrets: include ? 'include' : 'env' }) : '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(yaml);
      setNote({ kind: 'success', text: IDENTITY_MESSAGES.copied });
    } catch {
      setNote({ kind: 'error', text: IDENTITY_MESSAGES.copyFailed });
    }
  };
  const download = async () => {
    try {
      await saveBlob(new Blob([yaml], { type: 'application/yaml' }), fileNameFor(apiName));
    } catch (err) {
      setNote({ kind: 'error', text: (err as Error).message });
    }
  };

  return (
    <section className="yaml-panel" aria-labelledby={`${id}-title`} data-testid="yaml-export">
      <div className="yaml-panel-head">
        <h3 id={`${id}-title`}>Export as YAML</h3>
        <button type="button" className="icon-button icon-button-small" onClick={onClose} aria-label="Close the export">
          <Icon name="x" size={14} />
        </button>
      </div>
      {!config ? (
        <Alert kind="error" testId="yaml-export-invalid">
          {IDENTITY_MESSAGES.exportInvalid}
        </Alert>
      ) : (
        <>
          <label className="checkbox">
            <input type="checkbox" checked={include} onChange={(e) => setInclude(e.target.checked)} data-testid="yaml-include-secrets" />
            <span>
              Include secrets (passwords, tokens, client secrets) in the file.{' '}
              <span className="muted">Without them each secret is written as a <code>{'${env:NAME}'}</code> reference the command-line scanner fills from its environment.</span>
            </span>
          </label>
          <div className="field">
            <label htmlFor={`${id}-yaml`}>Scan configuration: portcullis scan --config {fileNameFor(apiName)}</label>
            <textarea id={`${id}-yaml`} className="mono yaml-text" readOnly value={yaml} rows={Math.min(18, yaml.split('\n').length + 1)} data-testid="yaml-export-text" />
          </div>
          <div className="button-row">
            <button type="button" className="button button-secondary button-small" onClick={() => void copy()} data-testid="yaml-copy">
              <Icon name="copy" size={14} />
              Copy
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => void download()} data-testid="yaml-download">
              <Icon name="download" size={14} />
              Download {fileNameFor(apiName)}
            </button>
          </div>
          {note && (
            <Alert kind={note.kind} testId="yaml-export-note">
              {note.text}
            </Alert>
          )}
        </>
      )}
    </section>
  );
}

function issueText(i: ConfigIssue): string {
  const where = i.line ? `Line ${i.line}${i.column ? `, column ${i.column}` : ''}` : 'The file';
  return `${where} — ${i.field}: ${i.message}`;
}

export function ImportPanel({ onImport, onClose }: { onImport(config: ScanConfig): void; onClose(): void }): ReactElement {
  const id = useId();
  const [text, setText] = useState('');
  const [issues, setIssues] = useState<ConfigIssue[]>([]);
  const [empty, setEmpty] = useState(false);

  const run = (source: string) => {
    setEmpty(false);
    if (!source.trim()) {
      setIssues([]);
      setEmpty(true);
      return;
    }
    const parsed = parseScanConfigYaml(source);
    if (!parsed.ok) {
      setIssues(parsed.issues);
      return;
    }
    setIssues([]);
    onImport(parsed.config);
  };

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    const source = await file.text();
    setText(source);
    run(source);
  };

  return (
    <section className="yaml-panel" aria-labelledby={`${id}-title`} data-testid="yaml-import">
      <div className="yaml-panel-head">
        <h3 id={`${id}-title`}>Import YAML</h3>
        <button type="button" className="icon-button icon-button-small" onClick={onClose} aria-label="Close the import">
          <Icon name="x" size={14} />
        </button>
      </div>
      <p className="small muted" style={{ marginTop: 0 }}>
        A scan configuration (the export above, or a file for <code>portcullis scan --config</code>). It replaces the identities below.
      </p>
      <div className="field">
        <label htmlFor={`${id}-file`}>YAML file</label>
        <input id={`${id}-file`} type="file" accept=".yaml,.yml,application/yaml,text/yaml" onChange={(e) => void readFile(e.target.files?.[0])} data-testid="yaml-import-file" />
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>Or paste it</label>
        <textarea id={`${id}-text`} className="mono yaml-text" rows={8} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} data-testid="yaml-import-text" />
      </div>
      {empty && (
        <Alert kind="error" testId="yaml-import-empty">
          {IDENTITY_MESSAGES.importEmpty}
        </Alert>
      )}
      {issues.length > 0 && (
        <Alert kind="error" testId="yaml-import-errors">
          <strong>The configuration was not imported:</strong>
          <ul>
            {issues.map((i, n) => (
              <li key={n} data-testid="yaml-import-error" data-line={i.line} data-field={i.field}>
                {issueText(i)}
              </li>
            ))}
          </ul>
        </Alert>
      )}
      <div className="button-row">
        <button type="button" className="button button-secondary button-small" onClick={() => run(text)} data-testid="yaml-import-submit">
          <Icon name="upload" size={14} />
          Import
        </button>
      </div>
    </section>
  );
}
