// A raw id (a UUID) shortened to its first characters, with the whole id on hover and a button that
// copies it (issue 17): cards stay readable, and the full id is one click away for support or the API.

import type { ReactElement } from 'react';
import { noticeStore } from '../stores/useNoticeStore';
import { Icon } from './Icon';

const SHOWN = 8;

export function ShortId({ id, label = 'ID', testId }: { id: string; label?: string; testId?: string }): ReactElement {
  const copy = async () => {
    let ok = true;
    try {
      await navigator.clipboard.writeText(id);
    } catch {
      ok = false;
    }
    noticeStore.getState().show(ok ? 'success' : 'error', ok ? `${label} copied to the clipboard.` : 'Could not copy: select the text and copy it instead.');
  };
  return (
    <span className="short-id">
      <span className="mono" title={id} data-testid={testId} data-full-id={id}>
        {id.length > SHOWN + 1 ? `${id.slice(0, SHOWN)}…` : id}
      </span>
      <button type="button" className="icon-button icon-button-small" onClick={() => void copy()} aria-label={`Copy the full ${label}`} data-testid={testId ? `${testId}-copy` : undefined}>
        <Icon name="copy" size={13} />
      </button>
    </span>
  );
}
