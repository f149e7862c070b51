// Shows the current transient notice (useNoticeStore) in the corner until it expires or is dismissed,
// with its link when it has one (a finished scan's page).

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { useNoticeStore } from '../stores/useNoticeStore';
import { Icon } from './Icon';

export function NoticeToast(): ReactElement | null {
  const notice = useNoticeStore((s) => s.notice);
  const dismiss = useNoticeStore((s) => s.dismiss);
  if (!notice) return null;
  return (
    <div
      className={`alert alert-${notice.kind} toast`}
      role={notice.kind === 'error' ? 'alert' : 'status'}
      data-testid="notice"
      data-kind={notice.kind}
    >
      <span data-testid="notice-text">{notice.text}</span>
      {notice.link && (
        <Link to={notice.link.to} onClick={dismiss} className="toast-link" data-testid="notice-link">
          {notice.link.label}
        </Link>
      )}
      <button type="button" className="icon-button" onClick={dismiss} aria-label="Dismiss message">
        <Icon name="x" size={16} />
      </button>
    </div>
  );
}
