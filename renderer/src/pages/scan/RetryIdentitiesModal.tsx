// Retry a scan that stopped at an identity's login, editing its identities first (issue 31): the scan's
// own identities in the Identities step (its secrets stay on the server as kept markers), the failed
// one's field in focus with what the API answered, and Retry with these identities, which runs the
// scan again with its other settings unchanged.

import { useEffect, useId, useState, type FormEvent, type ReactElement } from 'react';
import type { ApiSummary, LoginFailure } from '../../../../shared/contract';
import { formatTimestamp } from '../../../../shared/display';
import { expiredStaticTokens } from '../../../../shared/identities';
import { FALLBACK_MESSAGES, IDENTITY_MESSAGES, SCAN_MESSAGES } from '../../../../shared/messages';
import { identityRecipe, retryScan } from '../../api/scans';
import { Alert } from '../../components/Alert';
import { CodeText, LoginAnswerQuote, withoutInlineAnswer } from '../../components/LoginAnswerQuote';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { fieldElement } from '../../modals/identities/IdentityEditor';
import { IdentitiesStep } from '../../modals/identities/IdentitiesStep';
import { useIdentitiesForm } from '../../modals/identities/useIdentitiesForm';
import { reasonOf } from '../../modals/shared';
import { apisStore } from '../../stores/useApisStore';
import { currentAuth } from '../../stores/useAuthStore';
import { useUserZone } from '../../stores/useUserZoneStore';

const NO_KEYS = { key1: '', key2: '', lower: 2 as const };

export function RetryIdentitiesModal({
  api,
  scanId,
  failure,
  reason,
  onClose,
  onStarted,
}: {
  api: Pick<ApiSummary, 'id' | 'name'>;
  scanId: string;
  failure: LoginFailure | null;
  reason: string | null;
  onClose(): void;
  onStarted(scanId: string): void;
}): ReactElement {
  const id = useId();
  const form = useIdentitiesForm(api.id, true, NO_KEYS);
  const zone = useUserZone();
  const [load, setLoad] = useState<{ kind: 'loading' } | { kind: 'ready' } | { kind: 'error'; message: string }>({ kind: 'loading' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const auth = currentAuth();
    if (!auth) return;
    const controller = new AbortController();
    identityRecipe(auth, api.id, { scan_id: scanId }, controller.signal)
      .then((res) => {
        if (!res.ok || !res.data) {
          setLoad({ kind: 'error', message: res.message || FALLBACK_MESSAGES.startScan });
          return;
        }
        form.loadRecipe(res.data, { scan_id: scanId });
        setLoad({ kind: 'ready' });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setLoad({ kind: 'error', message: reasonOf(err, FALLBACK_MESSAGES.startScan) });
      });
    return () => controller.abort();
    // The form's functions are new on every render; the recipe is read once per scan.
  }, [api.id, scanId]);

  // Once the identities are in, the failed identity's likely mistake takes the focus.
  const ready = load.kind === 'ready' && form.drafts.length > 0;
  useEffect(() => {
    if (!ready || !failure) return;
    const card = document.querySelector<HTMLElement>(`[data-testid="retry-identities-modal"] [data-identity-name="${CSS.escape(failure.identity)}"]`);
    const el = card && failure.field ? fieldElement(card, failure.field) : card;
    el?.scrollIntoView({ block: 'center' });
    el?.focus();
  }, [ready, failure]);

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const auth = currentAuth();
    if (!auth || busy) return;
    setError(null);
    const check = form.check();
    if (!check.config) {
      setError(IDENTITY_MESSAGES.fixErrors);
      return;
    }
    const expired = expiredStaticTokens(check.config.identities, Date.now())[0];
    if (expired) {
      const message = IDENTITY_MESSAGES.tokenExpired(expired.name, formatTimestamp(expired.expiredAt, zone.zone), zone.label);
      form.serverErrors([{ field: `identities.${expired.index}.token`, message }]);
      setError(message);
      return;
    }
    setBusy(true);
    try {
      const res = await retryScan(auth, scanId, { identities: check.inputs, signup: form.signup });
      if (res.ok && res.data?.scan_id) {
        void apisStore.getState().load();
        onStarted(res.data.scan_id);
        return;
      }
      if (!res.ok && res.errors.length) form.serverErrors(res.errors);
      setError(SCAN_MESSAGES.startFailed(res.message || FALLBACK_MESSAGES.startScan));
    } catch (err) {
      setError(SCAN_MESSAGES.startFailed(reasonOf(err, FALLBACK_MESSAGES.startScan)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={IDENTITY_MESSAGES.retryTitle}
      subtitle={api.name}
      onClose={onClose}
      busy={busy}
      wide
      testId="retry-identities-modal"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={`${id}-form`} className="button button-primary" disabled={!ready || busy || form.envNames.length > 0} data-testid="retry-identities-submit">
            <Icon name="play" size={16} />
            {busy ? 'Starting...' : IDENTITY_MESSAGES.retryWith}
          </button>
        </>
      }
    >
      {failure && (
        <Alert kind="error" testId="retry-login-failure">
          <div className="retry-failure">
            <span data-testid="retry-login-reason">{reason ? <CodeText text={withoutInlineAnswer(reason, failure.answer)} /> : IDENTITY_MESSAGES.loginFailedAt(failure.identity)}</span>
            {failure.answer && <LoginAnswerQuote answer={failure.answer} />}
          </div>
        </Alert>
      )}
      {error && (
        <Alert kind="error" testId="retry-identities-error">
          {error}
        </Alert>
      )}
      {load.kind === 'loading' && (
        <div className="loading-block">
          <Spinner label="Reading the scan's identities" />
        </div>
      )}
      {load.kind === 'error' && (
        <Alert kind="error" testId="retry-identities-load-error">
          {load.message}
        </Alert>
      )}
      {load.kind === 'ready' && (
        <form id={`${id}-form`} className="form" onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
          <IdentitiesStep form={form} apiName={api.name} disabled={busy} />
        </form>
      )}
    </Modal>
  );
}
