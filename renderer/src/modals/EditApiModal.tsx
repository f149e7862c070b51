// Edit API (spec sections 2, 7): the API's title and base URL (PUT /api/apis/update with
// updates {title, base_url}); owner only.

import { useId, useState, type FormEvent, type ReactElement } from 'react';
import type { ApiSummary } from '../../../shared/contract';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../shared/messages';
import { isHttpUrl } from '../../../shared/validation';
import { updateApi } from '../api/apis';
import { Alert } from '../components/Alert';
import { errorsByField, Field } from '../components/Field';
import { Modal } from '../components/Modal';
import { currentAuth } from '../stores/useAuthStore';
import { noticeStore } from '../stores/useNoticeStore';
import { reasonOf } from './shared';

/** Not in the spec: the client's own checks before the server's. */
export const EDIT_API_MESSAGES = {
  titleRequired: 'Title is required.',
  baseUrlInvalid: 'Base URL must be an http:// or https:// address.',
  nothingChanged: 'Nothing to save: change the title or the base URL first.',
} as const;

export function EditApiModal({ api, onClose, onSaved }: { api: ApiSummary; onClose(): void; onSaved(): void }): ReactElement {
  const [title, setTitle] = useState(api.name);
  const [baseUrl, setBaseUrl] = useState(api.base_url);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const next: Record<string, string> = {};
    if (!title.trim()) next.title = EDIT_API_MESSAGES.titleRequired;
    if (!isHttpUrl(baseUrl.trim())) next.base_url = EDIT_API_MESSAGES.baseUrlInvalid;
    setErrors(next);
    if (Object.keys(next).length) return;
    const updates: { title?: string; base_url?: string } = {};
    if (title.trim() !== api.name) updates.title = title.trim();
    if (baseUrl.trim() !== api.base_url) updates.base_url = baseUrl.trim();
    if (!updates.title && !updates.base_url) {
      setError(EDIT_API_MESSAGES.nothingChanged);
      return;
    }
    const auth = currentAuth();
    if (!auth) return;
    setError(null);
    setSaving(true);
    try {
      const res = await updateApi(auth, api.id, updates);
      if (!res.ok) {
        const byField = errorsByField(res.errors.map((x) => ({ ...x, field: x.field.replace(/^updates\./, '') })));
        setErrors(byField);
        setError(res.message || FALLBACK_MESSAGES.updateApi);
        return;
      }
      noticeStore.getState().show('success', API_MESSAGES.updated);
      onSaved();
      onClose();
    } catch (err) {
      setError(reasonOf(err, FALLBACK_MESSAGES.updateApi));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="Edit API"
      subtitle={api.name}
      onClose={onClose}
      busy={saving}
      testId="edit-api-modal"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" form={`${id}-form`} className="button button-primary" disabled={saving} data-testid="edit-api-save">
            {saving ? 'Saving...' : 'Save Changes'}
          </button>
        </>
      }
    >
      {error && (
        <Alert kind="error" testId="edit-api-error">
          {error}
        </Alert>
      )}
      <form id={`${id}-form`} className="form" onSubmit={(e) => void submit(e)} noValidate>
        <Field label="Title" error={errors.title} testId="edit-api-title">
          {(p) => <input {...p} value={title} onChange={(e) => setTitle(e.target.value)} disabled={saving} data-testid="edit-api-title" />}
        </Field>
        <Field label="Base URL" error={errors.base_url} hint="Every request of a scan goes to this address; nothing outside its host is contacted." testId="edit-api-base-url">
          {(p) => (
            <input {...p} type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} disabled={saving} spellCheck={false} data-testid="edit-api-base-url" />
          )}
        </Field>
      </form>
    </Modal>
  );
}
