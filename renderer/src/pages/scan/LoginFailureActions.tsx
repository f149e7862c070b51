// A scan that stopped at an identity's login (issue 31): what the API answered, quoted, and Retry
// offering to edit the identities first (RetryIdentitiesModal) or to run again as it was.

import { useState, type ReactElement } from 'react';
import type { ApiSummary, LoginFailure } from '../../../../shared/contract';
import { IDENTITY_MESSAGES } from '../../../../shared/messages';
import { Icon } from '../../components/Icon';
import { LoginAnswerQuote } from '../../components/LoginAnswerQuote';
import { RetryIdentitiesModal } from './RetryIdentitiesModal';

export function LoginFailureActions({
  api,
  scanId,
  failure,
  reason,
  canScan,
  busy,
  onRetry,
  onStarted,
}: {
  api: Pick<ApiSummary, 'id' | 'name'>;
  scanId: string;
  failure: LoginFailure;
  reason: string | null;
  canScan: boolean;
  busy: boolean;
  onRetry(): void;
  onStarted(scanId: string): void;
}): ReactElement {
  const [editing, setEditing] = useState(false);
  return (
    <div className="login-failure" data-testid="login-failure" data-identity={failure.identity}>
      {failure.answer && <LoginAnswerQuote answer={failure.answer} />}
      {canScan && (
        <div className="login-failure-actions">
          <button type="button" className="button button-primary button-small" onClick={() => setEditing(true)} disabled={busy} data-testid="scan-edit-retry">
            <Icon name="edit" size={14} />
            {IDENTITY_MESSAGES.editAndRetry}
          </button>
          <button type="button" className="button button-secondary button-small" onClick={onRetry} disabled={busy} data-testid="scan-retry">
            <Icon name="play" size={14} />
            {IDENTITY_MESSAGES.retryAsIs}
          </button>
        </div>
      )}
      {editing && (
        <RetryIdentitiesModal
          api={api}
          scanId={scanId}
          failure={failure}
          reason={reason}
          onClose={() => setEditing(false)}
          onStarted={(next) => {
            setEditing(false);
            onStarted(next);
          }}
        />
      )}
    </div>
  );
}
