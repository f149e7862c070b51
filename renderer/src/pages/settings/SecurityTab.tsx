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
  const prefsDisabled = prefs.saving || ctx.disabled;
  const security = prefs.draft.security;

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="form" aria-label="Change password">
        <h2 className="settings-section-title">Change password</h2>
        <p className="settings-section-lead" id="password-note">
          {PASSWORD_CHANGE_MESSAGES.formNote}
        </p>
        <Field label="Current password" error={errors.currentPassword} testId="password-current">
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="current-password"
              value={form.currentPassword}
              onChange={(e) => set('currentPassword')(e.target.value)}
              disabled={disabled}
              data-testid="password-current"
            />
          )}
        </Field>
        <div className="form-grid">
          <Field label="New password" error={errors.newPassword} testId="password-new">
            {(p) => (
              <input
                {...p}
                aria-describedby={[p['aria-describedby'], 'password-note'].filter(Boolean).join(' ')}
                type="password"
                autoComplete="new-password"
                value={form.newPassword}
                onChange={(e) => set('newPassword')(e.target.value)}
                disabled={disabled}
                data-testid="password-new"
              />
            )}
          </Field>
          <Field label="Confirm new password" error={errors.confirmPassword} testId="password-confirm">
            {(p) => (
              <input
                {...p}
                type="password"
                autoComplete="new-password"
                value={form.confirmPassword}
                onChange={(e) => set('confirmPassword')(e.target.value)}
                disabled={disabled}
                data-testid="password-confirm"
              />
            )}
          </Field>
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
