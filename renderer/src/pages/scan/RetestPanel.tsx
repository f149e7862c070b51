// Re-test of one finding (issue 29): its latest outcome ("Still present — re-tested <time>"), a
// Re-test button for the owner and Manage shares (disabled, with a spinner, while it runs), Close as
// fixed once a re-test did not reproduce it, and the finding's re-test history with each one's
// evidence or the requests it sent.

import { useEffect, type ReactElement } from 'react';
import type { FindingBrief, FindingRetest, FindingRetestSummary } from '../../../../shared/contract';
import { RETEST_MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/Alert';
import { Spinner } from '../../components/Spinner';
import { when } from '../../lib/format';
import { retestStore, useRetestStore } from '../../stores/useRetestStore';
import './retest-panel.css';

/** "Still present — re-tested <time>". */
export function retestHeadline(r: FindingRetestSummary): string {
  return `${RETEST_MESSAGES.outcomeLabel[r.outcome]} — re-tested ${when(r.at)}`;
}

function HistoryItem({ r }: { r: FindingRetest }): ReactElement {
  const detail = r.outcome === 'reproduced' ? [r.evidence, r.curl].filter(Boolean).join('\n\n') : r.outcome === 'failed' ? (r.reason ?? '') : r.sent.join('\n');
  const seconds = (r.duration_ms / 1000).toFixed(1);
  return (
    <li data-testid="retest-history-item" data-outcome={r.outcome}>
      <details>
        <summary className="small">
          <strong>{RETEST_MESSAGES.outcomeLabel[r.outcome]}</strong> · {when(r.at)}
          {r.by ? ` · by ${r.by}` : ''} · {seconds} s, {r.requests_sent} request{r.requests_sent === 1 ? '' : 's'}
        </summary>
        {detail && (
          <pre className="mono" tabIndex={0} aria-label={`${RETEST_MESSAGES.outcomeLabel[r.outcome]}: details`}>
            {detail}
          </pre>
        )}
      </details>
    </li>
  );
}

export function RetestPanel({ finding, canRetest }: { finding: FindingBrief; canRetest: boolean }): ReactElement {
  const state = useRetestStore((s) => s.byFinding[finding.id]);
  useEffect(() => {
    void retestStore.getState().load(finding.id);
  }, [finding.id]);

  const history = state?.history ?? null;
  const latest: FindingRetestSummary | null = history?.[0] ?? finding.retest ?? null;
  const running = !!state?.running;
  const closing = !!state?.closing;
  const fixed = finding.triage?.state === 'fixed';

  return (
    <section className="retest-panel" aria-labelledby="retest-title" data-testid="retest-panel">
      <h3 id="retest-title">Re-test</h3>
      {latest ? (
        <p className="retest-outcome small" data-testid="retest-outcome" data-outcome={latest.outcome}>
          <strong>{RETEST_MESSAGES.outcomeLabel[latest.outcome]}</strong> — re-tested {when(latest.at)}
          {latest.by ? <span className="muted"> by {latest.by}</span> : null}
        </p>
      ) : (
        <p className="muted small retest-outcome" data-testid="retest-outcome" data-outcome="none">
          {RETEST_MESSAGES.never}
        </p>
      )}
      {state?.error && (
        <Alert kind="error" testId="retest-error">
          {state.error}
        </Alert>
      )}
      {canRetest ? (
        <div className="retest-actions">
          <button type="button" className="button button-secondary button-small" onClick={() => void retestStore.getState().retest(finding)} disabled={running} aria-busy={running} data-testid="retest-button">
            {running ? (
              <>
                <Spinner label={RETEST_MESSAGES.running} />
                {RETEST_MESSAGES.running}
              </>
            ) : (
              'Re-test'
            )}
          </button>
          {latest?.outcome === 'not_reproduced' && !fixed && (
            <button type="button" className="button button-primary button-small" onClick={() => void retestStore.getState().closeFixed(finding)} disabled={closing || running} data-testid="close-fixed-button">
              {closing ? 'Closing…' : 'Close as fixed'}
            </button>
          )}
        </div>
      ) : (
        <p className="muted small" data-testid="retest-read-only" style={{ margin: 0 }}>
          {RETEST_MESSAGES.viewOnly}
        </p>
      )}
      {history && history.length > 0 && (
        <ol className="retest-history" data-testid="retest-history" aria-label="Re-test history">
          {history.map((r) => (
            <HistoryItem key={r.id} r={r} />
          ))}
        </ol>
      )}
    </section>
  );
}
