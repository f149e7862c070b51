// The live header of a running scan (issue 17 item 3): a progress bar of the tasks done, the check and
// endpoint it is on now, requests sent, the request rate and an estimate of the time left.

import { useEffect, useState, type ReactElement } from 'react';
import type { ScanInfo } from '../../../../shared/contract';
import { ProgressBar } from '../../components/ProgressBar';
import { formatEta, formatPace, formatRate, liveNumbers } from './live-scan';

export function LiveScanPanel({ info }: { info: ScanInfo }): ReactElement {
  // The rate and the time left move on between progress events too.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const { done, total } = info.progress;
  const numbers = liveNumbers({ done, total, requestsSent: info.requests_sent, startedAt: info.started_at }, now);
  const current = info.current ?? null;
  return (
    <section className="panel scan-live" aria-labelledby="scan-live-title" data-testid="scan-live">
      <div className="scan-live-head">
        <h2 id="scan-live-title">
          <span className="spinner" aria-hidden="true" />
          Scan in progress
        </h2>
        <span className="small muted" data-testid="scan-live-tasks">
          {total > 0 ? `${done} of ${total} tasks` : 'Starting'}
        </span>
      </div>
      <ProgressBar done={total > 0 ? done : undefined} total={total > 0 ? total : undefined} label="Scan progress" testId="scan-live-progress" />
      <dl className="scan-live-facts">
        <div className="scan-live-current">
          <dt>Checking now</dt>
          <dd data-testid="scan-live-current">
            {current ? (
              <>
                <span data-testid="scan-live-check">{current.check}</span>
                {current.endpoint && (
                  <>
                    {' on '}
                    <code data-testid="scan-live-endpoint">{current.endpoint}</code>
                  </>
                )}
              </>
            ) : (
              '—'
            )}
          </dd>
        </div>
        <div>
          <dt>Requests sent</dt>
          <dd data-testid="scan-live-requests">{info.requests_sent}</dd>
        </div>
        <div>
          <dt>Rate</dt>
          <dd data-testid="scan-live-rate">{formatRate(numbers.rate)}</dd>
        </div>
        <div>
          <dt>Pace</dt>
          <dd data-testid="scan-live-pace" title="Requests in flight to the API now: halved when it slows down or times out, won back as it recovers">
            {formatPace(info.pace)}
          </dd>
        </div>
        <div>
          <dt>Time left</dt>
          <dd data-testid="scan-live-eta">{formatEta(numbers.etaSeconds)}</dd>
        </div>
      </dl>
    </section>
  );
}
