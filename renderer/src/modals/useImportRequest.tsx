// What the Import dialog's URL and GraphQL forms share: one import request at a time, its busy state
// told to the dialog, the failure's reason as the form's error, and the progress line while it runs.

import { useState, type ReactElement } from 'react';
import type { ImportData } from '../../../shared/contract';
import type { ApiFail, ApiResult } from '../api/client';
import { ProgressBar } from '../components/ProgressBar';
import { reasonOf } from './shared';

export interface ImportFormProps {
  formId: string;
  onBusy(busy: boolean): void;
  onImported(message: string, data: ImportData): void;
}

export interface ImportRequest {
  busy: boolean;
  error: string | null;
  /**
   * Sends the import unless one is running. A refusal shows `refused(res)` (else the server's message),
   * success hands the message (else `imported(data)`) and the data to onImported.
   */
  send(
    request: () => Promise<ApiResult<ImportData>>,
    texts: { imported(data: ImportData): string; refused?(res: ApiFail): string | undefined },
  ): Promise<void>;
}

export function useImportRequest({ onBusy, onImported }: ImportFormProps, failed: string): ImportRequest {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send: ImportRequest['send'] = async (request, texts) => {
    if (busy) return;
    setError(null);
    setBusy(true);
    onBusy(true);
    try {
      const res = await request();
      if (!res.ok) {
        setError(texts.refused?.(res) || res.message || res.errors[0]?.message || failed);
        return;
      }
      if (!res.data) {
        setError(res.message || failed);
        return;
      }
      onImported(res.message || texts.imported(res.data), res.data);
    } catch (err) {
      setError(reasonOf(err, failed));
    } finally {
      setBusy(false);
      onBusy(false);
    }
  };

  return { busy, error, send };
}

/** The indeterminate bar and what it is doing, while an import runs. */
export function ImportProgress({ testId, text }: { testId: string; text: string }): ReactElement {
  return (
    <div data-testid={testId}>
      <ProgressBar label="Import progress" />
      <div className="progress-label">
        <span>{text}</span>
      </div>
    </div>
  );
}
