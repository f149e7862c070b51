// Triage of one finding (issue 17): its mark with who set it and when, and for the owner and Manage
// shares a form to mark it open, a false positive or an accepted risk (with a reason, and an optional
// end date for an accepted risk). View shares see the mark only. The end date is a day of the user's
// Settings zone: picked, stored (as the first moment after it) and shown in that zone, never the browser's.

import { forwardRef, useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { TRIAGE_STATES, type TriageState } from '../../../../shared/constants';
import type { FindingBrief } from '../../../../shared/contract';
import { TRIAGE_MESSAGES } from '../../../../shared/messages';
import { addDays, dayEndingAt, dayInZone, endOfDayInZone } from '../../../../shared/zone-days';
import { Alert } from '../../components/Alert';
import { Field } from '../../components/Field';
import { when } from '../../lib/format';
import { noticeStore } from '../../stores/useNoticeStore';
import { scanPageStore } from '../../stores/useScanPageStore';
import { useUserZone, userZoneStore } from '../../stores/useUserZoneStore';
import { editableTriageState, TRIAGE_LABELS } from './findings-view';

const REASON_MAX = 1000;

/** Tomorrow in the user's zone (YYYY-MM-DD): the first day an accepted risk may end. */
function tomorrow(zone: string): string {
  return addDays(dayInZone(Date.now(), zone), 1);
}

function MarkSummary({ finding }: { finding: FindingBrief }): ReactElement {
  const t = finding.triage;
  const { zone, label } = useUserZone();
  if (!t) return <p className="muted small triage-mark" data-testid="triage-mark">Open: nobody has triaged this finding yet.</p>;
  return (
    <div className="triage-mark" data-testid="triage-mark" data-state={t.state}>
      <p className="small" style={{ margin: 0 }}>
        <strong data-testid="triage-mark-state">{TRIAGE_LABELS[t.state]}</strong>
        {' · '}
        <span data-testid="triage-mark-by">{t.set_by ? `set by ${t.set_by}` : t.state === 'open' && t.expires_at ? 'the accepted risk ended' : 'set by a former user'}</span>
        {' on '}
        <span data-testid="triage-mark-at">{when(t.set_at)}</span>
        {t.state === 'accepted_risk' && (
          <span data-testid="triage-mark-expires">{t.expires_at ? ` · until the end of ${dayEndingAt(t.expires_at, zone)} (${label})` : ' · no end date'}</span>
        )}
      </p>
      {t.reason && (
        <p className="small muted" style={{ margin: '4px 0 0' }} data-testid="triage-mark-reason">
          “{t.reason}”
        </p>
      )}
    </div>
  );
}

export const TriagePanel = forwardRef<HTMLSelectElement, { finding: FindingBrief; canTriage: boolean }>(function TriagePanel({ finding, canTriage }, stateRef): ReactElement {
  const [state, setState] = useState<TriageState>(editableTriageState(finding));
  const [reason, setReason] = useState(finding.triage?.reason ?? '');
  const [expires, setExpires] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { zone, label: zoneLabel } = useUserZone();

  useEffect(() => {
    void userZoneStore.getState().load();
  }, []);

  // Another finding, a new mark on this one, or the user's zone read: the form starts from the mark.
  useEffect(() => {
    setState(editableTriageState(finding));
    setReason(finding.triage?.reason ?? '');
    setExpires(finding.triage?.state === 'accepted_risk' && finding.triage.expires_at ? dayEndingAt(finding.triage.expires_at, zone) : '');
    setError(null);
  }, [finding.id, finding.triage, zone]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(null);
    const failure = await scanPageStore.getState().triage(finding, {
      state,
      reason: reason.trim(),
      ...(state === 'accepted_risk' ? { expires_at: expires ? (endOfDayInZone(expires, zone)?.toISOString() ?? expires) : null } : {}),
    });
    setSaving(false);
    if (failure) setError(failure);
    else noticeStore.getState().show('success', TRIAGE_MESSAGES.saved);
  };

  return (
    <section className="triage-panel" aria-labelledby="triage-title" data-testid="triage-panel">
      <h3 id="triage-title">Triage</h3>
      <MarkSummary finding={finding} />
      {canTriage ? (
        <form className="triage-form" onSubmit={(e) => void submit(e)} data-testid="triage-form">
          {error && (
            <Alert kind="error" testId="triage-error">
              {error}
            </Alert>
          )}
          <div className="triage-fields">
            <Field label="State" testId="triage-state">
              {(props) => (
                <select {...props} ref={stateRef} value={state} onChange={(e) => setState(e.target.value as TriageState)} data-testid="triage-state" aria-keyshortcuts="t">
                  {TRIAGE_STATES.map((s) => (
                    <option key={s} value={s}>
                      {TRIAGE_LABELS[s]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {state === 'accepted_risk' && (
              <Field label="Accepted until (optional)" hint={<span data-testid="triage-expires-zone">Until the end of that day in your time zone, {zoneLabel} (Settings).</span>} testId="triage-expires">
                {(props) => <input {...props} type="date" value={expires} min={tomorrow(zone)} onChange={(e) => setExpires(e.target.value)} data-testid="triage-expires" />}
              </Field>
            )}
          </div>
          <Field label="Reason" testId="triage-reason">
            {(props) => (
              <input
                {...props}
                type="text"
                value={reason}
                maxLength={REASON_MAX}
                onChange={(e) => setReason(e.target.value)}
                placeholder={state === 'false_positive' ? 'Why this is not a real issue' : state === 'accepted_risk' ? 'Why the risk is acceptable' : 'Optional'}
                data-testid="triage-reason"
              />
            )}
          </Field>
          <div>
            <button type="submit" className="button button-primary button-small" disabled={saving} data-testid="triage-save">
              {saving ? 'Saving...' : 'Save triage'}
            </button>
            <span className="muted small" style={{ marginLeft: 10 }}>
              Press <kbd>T</kbd> to get here from the list.
            </span>
          </div>
        </form>
      ) : (
        <p className="muted small" data-testid="triage-read-only" style={{ margin: '8px 0 0' }}>
          You have view access to this API: only its owner and people with Manage access can triage findings.
        </p>
      )}
    </section>
  );
});
