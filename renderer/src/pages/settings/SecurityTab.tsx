// Settings → Security: the password form (spec sections 4, 5, 8), the session preferences,
// two-factor sign-in, active sessions and recent sign-ins.

import { useState, type FormEvent, type ReactElement } from 'react';
import { SESSION_TIMEOUT_CHOICES } from '../../../../shared/constants';
import { PASSWORD_CHANGE_MESSAGES, SETTINGS_MESSAGES } from '../../../../shared/messages';
import { validatePasswordChange } from '../../../../shared/validation';
import * as settingsApi from '../../api/settings';
import { errorsByField, Field } from '../../components/Field';
import { Switch } from '../../components/Switch';
import { useFieldForm } from '../../hooks/useFieldForm';
import { SessionsPanel } from './SessionsPanel';
import { TwoFactorPanel } from './TwoFactorPanel';
import type { PreferencesControl, SettingsContext } from './types';

type PasswordForm = { currentPassword: string; newPassword: string; confirmPassword: string };
const EMPTY: PasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

function timeoutLabel(minutes: string): string {
  const n = Number(minutes);
  if (n >= 60 && n % 60 === 0) return `${n / 60} hour${n === 60 ? '' : 's'}`;
  return `${n} minutes`;
}

/** One password input of the form, with its label and error. */
function PasswordField({
  label,
  field,
  autoComplete,
  describedBy,
  testId,
  form,
  errors,
  set,
  disabled,
}: {
  label: string;
  field: keyof PasswordForm;
  autoComplete: 'current-password' | 'new-password';
  /** Another element that describes the input (the form's note). */
  describedBy?: string;
  testId: string;
  form: PasswordForm;
  errors: Partial<Record<string, string>>;
  set(name: keyof PasswordForm): (value: string) => void;
  disabled: boolean;
}): ReactElement {
  return (
    <Field label={label} error={errors[field]} testId={testId}>
      {(p) => (
        <input
          {...p}
          {...(describedBy ? { 'aria-describedby': [p['aria-describedby'], describedBy].filter(Boolean).join(' ') } : {})}
          type="password"
          autoComplete={autoComplete}
          value={form[field]}
          onChange={(e) => set(field)(e.target.value)}
          disabled={disabled}
          data-testid={testId}
        />
      )}
    </Field>
  );
}

export function SecurityTab({ ctx, prefs }: { ctx: SettingsContext; prefs: PreferencesControl }): ReactElement {
  const { form, setForm, errors, setErrors, set } = useFieldForm<PasswordForm>(EMPTY);
  const [saving, setSaving] = useState(false);


  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const token = ctx.token();
    if (!token) return ctx.missingToken();
    const problems = validatePasswordChange(form);
    if (problems.length) {
      setErrors(errorsByField(problems));
      ctx.setBanner({ kind: 'error', text: SETTINGS_MESSAGES.fixErrors });
      return;
    }
    setErrors({});
    ctx.setBanner(null);
    setSaving(true);
    const res = await settingsApi.changePassword(token, form);
    setSaving(false);
    if (res.ok) {
      setForm(EMPTY);
      ctx.setBanner({ kind: 'success', text: PASSWORD_CHANGE_MESSAGES.success });
      return;
    }
    if (res.sessionExpired) return ctx.sessionExpired();
    setErrors(errorsByField(res.errors));
    let text: string;
    if (res.kind !== 'http') text = res.message;
    else if (res.status === 400) text = res.serverMessage || PASSWORD_CHANGE_MESSAGES.currentIncorrect;
    else if (res.status >= 500 || res.status === 403) text = res.message;
    else text = res.serverMessage || PASSWORD_CHANGE_MESSAGES.failedGeneric;
    ctx.setBanner({ kind: 'error', text });
  };

  const disabled = saving || ctx.disabled;
  const fieldProps = { form, errors, set, disabled };
  const prefsDisabled = prefs.saving || ctx.disabled;
  const security = prefs.draft.security;

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="form" aria-label="Change password">
        <h2 className="settings-section-title">Change password</h2>
        <p className="settings-section-lead" id="password-note">
          {PASSWORD_CHANGE_MESSAGES.formNote}
        </p>
        <PasswordField label="Current password" field="currentPassword" autoComplete="current-password" testId="password-current" {...fieldProps} />
        <div className="form-grid">
          <PasswordField label="New password" field="newPassword" autoComplete="new-password" describedBy="password-note" testId="password-new" {...fieldProps} />
          <PasswordField label="Confirm new password" field="confirmPassword" autoComplete="new-password" testId="password-confirm" {...fieldProps} />
        </div>
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={disabled} data-testid="password-save">
            {saving ? SETTINGS_MESSAGES.updating : 'Update Password'}
          </button>
        </div>
      </form>

      <hr className="form-divider" />

      <section aria-labelledby="session-title">
        <h2 className="settings-section-title" id="session-title">
          Sign-in and sessions
        </h2>
        <p className="settings-section-lead">A session ends after this long without activity. Changing the password signs out your other sessions.</p>
        <div className="field" style={{ maxWidth: 320, marginBottom: 8 }}>
          <label htmlFor="session-timeout">Session timeout</label>
          <select
            id="session-timeout"
            value={security.sessionTimeout}
            onChange={(e) => prefs.edit('security', 'sessionTimeout', e.target.value)}
            disabled={prefsDisabled}
            data-testid="pref-sessionTimeout"
          >
            {!(SESSION_TIMEOUT_CHOICES as readonly string[]).includes(security.sessionTimeout) && (
              <option value={security.sessionTimeout}>{timeoutLabel(security.sessionTimeout)}</option>
            )}
            {SESSION_TIMEOUT_CHOICES.map((m) => (
              <option key={m} value={m}>
                {timeoutLabel(m)}
              </option>
            ))}
          </select>
        </div>
        <Switch
          label="Login notifications"
          hint="Tell me when my account signs in from a new device."
          checked={security.loginNotifications}
          onChange={(v) => prefs.edit('security', 'loginNotifications', v)}
          disabled={prefsDisabled}
          testId="pref-loginNotifications"
        />
        <div className="form-actions">
          <button type="button" className="button button-secondary" onClick={prefs.reset} disabled={prefsDisabled || !prefs.dirty} data-testid="prefs-reset-security">
            Reset Changes
          </button>
          <button type="button" className="button button-primary" onClick={() => void prefs.save()} disabled={prefsDisabled} data-testid="prefs-save-security">
            {prefs.saving ? SETTINGS_MESSAGES.saving : 'Save Security Settings'}
          </button>
        </div>
      </section>

      <hr className="form-divider" />
      <TwoFactorPanel ctx={ctx} />

      <hr className="form-divider" />
      <SessionsPanel ctx={ctx} />
    </>
  );
}
