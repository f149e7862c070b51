// Import API Spec (spec sections 2, 5, 8): pick or drop a .json/.yaml/.yml (or .har, .graphql, .graphqls) file,
// follow its progress (reading the file, then the upload and analysis), and read the importer's warnings
// before closing; or give the URL the server fetches the description from, or type endpoints by hand, or
// import a live GraphQL endpoint by introspection.

import { useId, useRef, useState, type DragEvent, type ReactElement } from 'react';
import { IMPORT_EXTENSIONS, IMPORT_MAX_BYTES } from '../../../shared/constants';
import type { ImportData } from '../../../shared/contract';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../shared/messages';
import { validateImportFile } from '../../../shared/validation';
import { importApi } from '../api/apis';
import { Alert } from '../components/Alert';
import { Icon, type IconName } from '../components/Icon';
import { Modal } from '../components/Modal';
import { ProgressBar } from '../components/ProgressBar';
import { currentAuth } from '../stores/useAuthStore';
import { noticeStore } from '../stores/useNoticeStore';
import { GraphqlEndpointForm } from './GraphqlEndpointForm';
import { formatLabel } from './import-formats';
import { ManualApiForm } from './ManualApiForm';
import { UrlImportForm } from './UrlImportForm';
import { reasonOf } from './shared';

type Phase =
  | { kind: 'idle' }
  | { kind: 'reading'; done: number; total: number }
  | { kind: 'uploading' }
  | { kind: 'done'; message: string; data: ImportData };

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** Reads the file with progress events, so a large specification shows how far the app got. */
function readWithProgress(file: File, onProgress: (done: number, total: number) => void): Promise<File> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.onload = () => {
      onProgress(file.size, file.size);
      resolve(new File([reader.result as ArrayBuffer], file.name, { type: file.type }));
    };
    reader.readAsArrayBuffer(file);
  });
}

export function ImportModal({ onClose, onImported }: { onClose(): void; onImported(): void }): ReactElement {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [over, setOver] = useState(false);
  const [mode, setMode] = useState<'file' | 'url' | 'manual' | 'graphql'>('file');
  const [manualBusy, setManualBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const formId = useId();
  const busy = phase.kind === 'reading' || phase.kind === 'uploading' || manualBusy;

  const choose = (picked: File | null) => {
    setPhase({ kind: 'idle' });
    const problems = validateImportFile(picked);
    if (picked && problems.length) {
      setFile(null);
      setError(problems[0]!.message);
      return;
    }
    if (picked && picked.size > IMPORT_MAX_BYTES) {
      setFile(null);
      setError(`The file is too large: the limit is ${formatBytes(IMPORT_MAX_BYTES)}.`);
      return;
    }
    setError(null);
    setFile(picked);
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    if (busy) return;
    choose(e.dataTransfer.files[0] ?? null);
  };

  /** An import that succeeded: a notice and close, or the importer's warnings to read first. */
  const finish = (message: string, data: ImportData) => {
    onImported();
    if (data.warnings.length === 0) {
      noticeStore.getState().show('success', message);
      onClose();
      return;
    }
    setMode('file');
    setPhase({ kind: 'done', message, data });
  };

  const submit = async () => {
    const problems = validateImportFile(file);
    if (!file || problems.length) {
      setError(problems[0]?.message ?? API_MESSAGES.selectFile);
      return;
    }
    const auth = currentAuth();
    if (!auth) return;
    setError(null);
    try {
      setPhase({ kind: 'reading', done: 0, total: file.size });
      const loaded = await readWithProgress(file, (done, total) => setPhase({ kind: 'reading', done, total }));
      setPhase({ kind: 'uploading' });
      const res = await importApi(auth, loaded);
      if (!res.ok || !res.data) {
        setPhase({ kind: 'idle' });
        setError(res.message || FALLBACK_MESSAGES.import);
        return;
      }
      finish(res.message || API_MESSAGES.imported(file.name), res.data);
    } catch (err) {
      setPhase({ kind: 'idle' });
      setError(reasonOf(err, FALLBACK_MESSAGES.import));
    }
  };

  // Cancel and the submit button of the form shown (endpoints typed by hand, or a GraphQL endpoint).
  const formFooter = (testId: string, icon: IconName, label: string, busyLabel: string) => (
    <>
      <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
        Cancel
      </button>
      <button type="submit" form={formId} className="button button-primary" disabled={busy} data-testid={testId}>
        <Icon name={icon} size={16} />
        {manualBusy ? busyLabel : label}
      </button>
    </>
  );

  const footer =
    mode === 'graphql' && phase.kind !== 'done' ? (
      formFooter('graphql-submit', 'upload', 'Import', 'Introspecting…')
    ) : mode === 'url' && phase.kind !== 'done' ? (
      formFooter('url-submit', 'upload', 'Import', 'Importing…')
    ) : mode === 'manual' ? (
      formFooter('manual-submit', 'plus', 'Create API', 'Creating...')
    ) : phase.kind === 'done' ? (
      <button type="button" className="button button-primary" onClick={onClose} data-testid="import-done">
        Done
      </button>
    ) : (
      <>
        <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button type="button" className="button button-primary" onClick={() => void submit()} disabled={busy} data-testid="import-submit">
          <Icon name="upload" size={16} />
          {busy ? 'Importing...' : 'Import'}
        </button>
      </>
    );

  return (
    <Modal title="Import API Spec" subtitle="A specification file or its URL, endpoints typed by hand, or a live GraphQL endpoint" onClose={onClose} footer={footer} testId="import-modal" busy={busy}>
      {phase.kind !== 'done' && (
        <div className="segmented import-mode" role="group" aria-label="How to add the API">
          <button type="button" aria-pressed={mode === 'file'} onClick={() => setMode('file')} disabled={busy} data-testid="import-mode-file">
            <Icon name="upload" size={16} />
            Upload a file
          </button>
          <button type="button" aria-pressed={mode === 'url'} onClick={() => setMode('url')} disabled={busy} data-testid="import-mode-url">
            <Icon name="link" size={16} />
            From a URL
          </button>
          <button type="button" aria-pressed={mode === 'manual'} onClick={() => setMode('manual')} disabled={busy} data-testid="import-mode-manual">
            <Icon name="edit" size={16} />
            Type endpoints
          </button>
          <button type="button" aria-pressed={mode === 'graphql'} onClick={() => setMode('graphql')} disabled={busy} data-testid="import-mode-graphql">
            <Icon name="server" size={16} />
            GraphQL
          </button>
        </div>
      )}
      {mode === 'graphql' && phase.kind !== 'done' ? (
        <GraphqlEndpointForm formId={formId} onBusy={setManualBusy} onImported={finish} />
      ) : mode === 'url' && phase.kind !== 'done' ? (
        <UrlImportForm formId={formId} onBusy={setManualBusy} onImported={finish} />
      ) : mode === 'manual' ? (
        <ManualApiForm
          formId={formId}
          onBusy={setManualBusy}
          onCreated={() => {
            onImported();
            onClose();
          }}
        />
      ) : phase.kind === 'done' ? (
        <div data-testid="import-result">
          <Alert kind="success" testId="import-success">
            {phase.message}
          </Alert>
          <p>
            <strong>{phase.data.api.name}</strong>: {phase.data.endpoint_count} {phase.data.format.startsWith('graphql') ? 'operation' : 'endpoint'}
            {phase.data.endpoint_count === 1 ? '' : 's'} from{' '}
            <span data-testid="import-format">{formatLabel(phase.data.format)}</span>.
          </p>
          <h3 style={{ fontSize: '1rem', marginBottom: 4 }}>
            <Icon name="alert" size={16} style={{ verticalAlign: '-3px' }} /> {phase.data.warnings.length} warning
            {phase.data.warnings.length === 1 ? '' : 's'} from the importer
          </h3>
          <p className="muted small">The API was imported; these parts of the file were guessed or left out.</p>
          <ul className="warning-list" data-testid="import-warnings">
            {phase.data.warnings.map((w, i) => (
              <li key={`${w.location}-${i}`} data-testid="import-warning">
                <code>{w.location}</code> — {w.message}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <>
          {error && (
            <Alert kind="error" testId="import-error">
              {error}
            </Alert>
          )}
          <div
            className={`dropzone${over ? ' is-over' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(true);
            }}
            onDragLeave={() => setOver(false)}
            onDrop={onDrop}
          >
            <Icon name="upload" size={32} />
            <strong>Drop a specification here, or choose a file</strong>
            <span className="small">
              Accepted: {IMPORT_EXTENSIONS.join(', ')} · up to {formatBytes(IMPORT_MAX_BYTES)}
            </span>
            <input
              ref={input}
              type="file"
              accept={IMPORT_EXTENSIONS.join(',')}
              style={{ display: 'none' }}
              onChange={(e) => {
                choose(e.target.files?.[0] ?? null);
                e.target.value = '';
              }}
              disabled={busy}
              data-testid="import-file"
            />
            <button type="button" className="button button-secondary button-small" onClick={() => input.current?.click()} disabled={busy} data-testid="import-choose">
              Choose file
            </button>
            {file && (
              <span className="file-chip" data-testid="import-file-name">
                <Icon name="fileText" size={16} />
                {file.name} · {formatBytes(file.size)}
              </span>
            )}
          </div>
          {busy && (
            <div style={{ marginTop: 16 }} data-testid="import-progress">
              <ProgressBar
                label="Import progress"
                done={phase.kind === 'reading' ? phase.done : undefined}
                total={phase.kind === 'reading' ? phase.total : undefined}
              />
              <div className="progress-label">
                <span>{phase.kind === 'reading' ? 'Reading the file…' : 'Uploading and analysing the specification…'}</span>
                <span>{phase.kind === 'reading' ? 'Step 1 of 2' : 'Step 2 of 2'}</span>
              </div>
            </div>
          )}
          <p className="muted small" style={{ marginTop: 16, marginBottom: 0 }}>
            The importer reads the API&apos;s name, base URL and endpoints and gives each endpoint the OWASP checks that fit it.
            References to other files or URLs are never fetched.
          </p>
        </>
      )}
    </Modal>
  );
}
