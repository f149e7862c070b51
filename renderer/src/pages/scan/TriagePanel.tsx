// Triage of one finding (issue 17): its mark with who set it and when, and for the owner and Manage
// shares a form to mark it open, a false positive or an accepted risk (with a reason, and an optional
// end date for an accepted risk). View shares see the mark only.

import { forwardRef, useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { TRIAGE_STATES, type TriageState } from '../../../../shared/constants';
import type { FindingBrief } from '../../../../shared/contract';
import { TRIAGE_MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/Alert';
import { Field } from '../../components/Field';
import { when } from '../../lib/format';
import { noticeStore } from '../../stores/useNoticeStore';
import { scanPageStore } from '../../stores/useScanPageStore';
import { editableTriageState, TRIAGE_LABELS } from './findings-view';

const REASON_MAX = 1000;

/** Tomorrow in the viewer's calendar (YYYY-MM-DD): the first day an accepted risk may end. */
function tomorrow(): string {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function MarkSummary({ finding }: { finding: FindingBrief }): ReactElement {
  const t = finding.triage;
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
          <span data-testid="triage-mark-expires">{t.expires_at ? ` · until ${when(t.expires_at)}` : ' · no end date'}</span>
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

  // Another finding, or a new mark on this one: the form starts from the mark.
  useEffect(() => {
    setState(editableTriageState(finding));
    setReason(finding.triage?.reason ?? '');
    setExpires(finding.triage?.state === 'accepted_risk' && finding.triage.expires_at ? finding.triage.expires_at.slice(0, 10) : '');
    setError(null);
  }, [finding.id, finding.triage]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(null);
    const failure = await scanPageStore.getState().triage(finding, {
      state,
      reason: reason.trim(),
      ...(state === 'accepted_risk' ? { expires_at: expires || null } : {}),
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
              <Field label="Accepted until (optional)" testId="triage-expires">
                {(props) => <input {...props} type="date" value={expires} min={tomorrow()} onChange={(e) => setExpires(e.target.value)} data-testid="triage-expires" />}
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
