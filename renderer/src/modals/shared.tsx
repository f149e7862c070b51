// Pieces the API management dialogs and the scan page share: the transient message, a pager, method
// badges, a code block with a copy button, the reason text of a failed call.

import type { ReactElement } from 'react';
import { Alert } from '../components/Alert';
import { Icon } from '../components/Icon';
import type { TransientMessage } from '../hooks/useTransient';

export function MessageLine({ message, testId = 'modal-message' }: { message: TransientMessage | null; testId?: string }): ReactElement | null {
  if (!message) return null;
  return (
    <Alert kind={message.kind} testId={testId}>
      {message.text}
    </Alert>
  );
}

export function MethodBadge({ method }: { method: string }): ReactElement {
  return <span className={`method method-${method.toLowerCase()}`}>{method.toUpperCase()}</span>;
}

/** The text of a failure: the server's message, the transport's, else the spec's fallback. */
export function reasonOf(source: { message?: string } | unknown, fallback: string): string {
  if (source && typeof source === 'object' && 'message' in source) {
    const m = (source as { message?: unknown }).message;
    if (typeof m === 'string' && m) return m;
  }
  return fallback;
}

export function Pager({
  page,
  pageCount,
  total,
  pageSize,
  onPage,
  label,
}: {
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
  onPage(page: number): void;
  label: string;
}): ReactElement | null {
  if (total === 0) return null;
  const from = page * pageSize + 1;
  const to = Math.min(total, (page + 1) * pageSize);
  return (
    <nav className="pager" aria-label={`${label} pages`} data-testid="pager">
      <span data-testid="pager-status">
        {from}–{to} of {total} · page {page + 1} of {pageCount}
      </span>
      <span className="pager-buttons">
        <button type="button" className="button button-secondary button-small" onClick={() => onPage(page - 1)} disabled={page === 0} data-testid="pager-prev">
          <Icon name="chevronLeft" size={16} />
          Previous
        </button>
        <button type="button" className="button button-secondary button-small" onClick={() => onPage(page + 1)} disabled={page >= pageCount - 1} data-testid="pager-next">
          Next
          <Icon name="chevronRight" size={16} />
        </button>
      </span>
    </nav>
  );
}

/** Evidence or a curl command, with a button that copies it. */
export function CodeBlock({
  title,
  text,
  testId,
  onCopied,
}: {
  title: string;
  text: string;
  testId: string;
  onCopied(ok: boolean): void;
}): ReactElement {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      onCopied(true);
    } catch {
      onCopied(false);
    }
  };
  return (
    <div>
      <div className="code-head">
        <h4>{title}</h4>
        <button type="button" className="button button-ghost button-small" onClick={() => void copy()} aria-label={`Copy ${title.toLowerCase()}`} data-testid={`${testId}-copy`}>
          <Icon name="copy" size={14} />
          Copy
        </button>
      </div>
      <pre className="code-block" data-testid={testId} tabIndex={0}>
        {text}
      </pre>
    </div>
  );
}

/** A finding's references as links (they come from the check catalogue). */
export function ReferenceList({ refs, className, testId }: { refs: string[]; className?: string; testId?: string }): ReactElement {
  return (
    <ul className={className} data-testid={testId}>
      {refs.map((r) => (
        <li key={r}>
          <a href={r} target="_blank" rel="noreferrer noopener">
            {r}
          </a>
        </li>
      ))}
    </ul>
  );
}
