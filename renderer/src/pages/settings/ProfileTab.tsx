// Settings → Profile: names and username (the basic profile), then phone, company, position, timezone,
// location, website and bio (the extended profile). Saved basic-then-extended (spec section 4).

import { useState, type FormEvent, type ReactElement } from 'react';
import { DEFAULT_TIMEZONE, LIMITS, TIMEZONES } from '../../../../shared/constants';
import type { ExtendedProfile } from '../../../../shared/contract';
import { displayName, initials } from '../../../../shared/display';
import { SETTINGS_MESSAGES } from '../../../../shared/messages';
import { validateExtendedProfile, validateSettingsProfile } from '../../../../shared/validation';
import * as settingsApi from '../../api/settings';
import { errorsByField, Field } from '../../components/Field';
import { useFieldForm } from '../../hooks/useFieldForm';
import { useAuthStore } from '../../stores/useAuthStore';
import type { SettingsContext } from './types';

const PROFILE_SAVED = 'Profile updated successfully';

type Form = {
  firstName: string;
  lastName: string;
  username: string;
  phone: string;
  company: string;
  position: string;
  timezone: string;
  location: string;
  website_url: string;
  bio: string;
};

export function ProfileTab({
  ctx,
  extended,
  onSaved,
}: {
  ctx: SettingsContext;
  extended: ExtendedProfile;
  onSaved(profile: ExtendedProfile): void;
}): ReactElement {
  const user = useAuthStore((s) => s.user);
  const setUser = useAuthStore((s) => s.setUser);
  const { form, errors, setErrors, set } = useFieldForm<Form>(() => ({
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    username: user?.username ?? '',
    phone: extended.phone,
    company: extended.company,
    position: extended.position,
    timezone: extended.timezone || DEFAULT_TIMEZONE,
    location: extended.location,
    website_url: extended.website_url,
    bio: extended.bio,
  }));
  const [saving, setSaving] = useState(false);


  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const token = ctx.token();
    if (!token) return ctx.missingToken();
    // An unchanged username is not checked again: sign-up allows names Settings would refuse.
    const username = form.username.trim();
    const changesUsername = !!username && username.toLowerCase() !== (user?.username ?? '').toLowerCase();
    const basicErrors = validateSettingsProfile({ firstName: form.firstName, lastName: form.lastName, username: changesUsername ? username : '' });
    if (basicErrors.length) {
      setErrors(errorsByField(basicErrors));
      ctx.setBanner({ kind: 'error', text: SETTINGS_MESSAGES.fixErrors });
      return;
    }
    setErrors({});
    ctx.setBanner(null);
    setSaving(true);
    try {
      const basic = await settingsApi.updateProfile(token, {
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        ...(changesUsername ? { username } : {}),
      });
      if (!basic.ok) {
        if (basic.sessionExpired) return ctx.sessionExpired();
        setErrors(errorsByField(basic.errors));
        ctx.setBanner({ kind: 'error', text: basic.message });
        return;
      }
      if (basic.data?.user) setUser(basic.data.user);

      const extendedErrors = validateExtendedProfile(form);
      if (extendedErrors.length) {
        setErrors(errorsByField(extendedErrors));
        ctx.setBanner({ kind: 'error', text: SETTINGS_MESSAGES.extendedPartial });
        return;
      }
      const ext = await settingsApi.updateExtendedProfile(token, {
        phone: form.phone.trim(),
        company: form.company.trim(),
        position: form.position.trim(),
        timezone: form.timezone,
        location: form.location.trim(),
        website_url: form.website_url.trim(),
        bio: form.bio,
      });
      if (!ext.ok) {
        if (ext.sessionExpired) return ctx.sessionExpired();
        setErrors(errorsByField(ext.errors));
        ctx.setBanner({ kind: 'error', text: SETTINGS_MESSAGES.extendedPartial });
        return;
      }
      if (ext.data?.profile) onSaved(ext.data.profile);
      ctx.setBanner({ kind: 'success', text: basic.message || PROFILE_SAVED });
    } finally {
      setSaving(false);
    }
  };

  const disabled = saving || ctx.disabled;
  const input = (key: keyof Form, extra: Record<string, unknown> = {}) => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => set(key)(e.target.value),
    disabled,
    'data-testid': `settings-${key}`,
    ...extra,
  });

  return (
    <form onSubmit={onSubmit} noValidate className="form" aria-label="Profile">
      <div className="profile-summary">
        <span className="avatar avatar-large" aria-hidden="true">
          {extended.avatar_url ? <img src={extended.avatar_url} alt="" referrerPolicy="no-referrer" /> : initials(user)}
        </span>
        <div>
          <strong data-testid="settings-display-name">{displayName(user)}</strong>
          <div className="muted small">@{user?.username}</div>
        </div>
      </div>

      <h2 className="settings-section-title">Basic information</h2>
      <div className="form-grid">
        <Field label="First name" error={errors.firstName} testId="settings-firstName">
          {(p) => <input {...p} {...input('firstName', { autoComplete: 'given-name', maxLength: LIMITS.nameMax + 10 })} />}
        </Field>
        <Field label="Last name" error={errors.lastName} testId="settings-lastName">
          {(p) => <input {...p} {...input('lastName', { autoComplete: 'family-name', maxLength: LIMITS.nameMax + 10 })} />}
        </Field>
        <Field label="Username" hint="3 to 30 letters, numbers, underscores or dashes" error={errors.username} testId="settings-username">
          {(p) => <input {...p} {...input('username', { autoComplete: 'username' })} />}
        </Field>
        <Field label="Email" hint={SETTINGS_MESSAGES.emailReadOnly} testId="settings-email">
          {(p) => <input {...p} type="email" value={user?.email ?? ''} readOnly data-testid="settings-email" />}
        </Field>
      </div>

      <hr className="form-divider" />
      <h2 className="settings-section-title">More about you</h2>
      <div className="form-grid">
        <Field label="Phone" error={errors.phone} testId="settings-phone">
          {(p) => <input {...p} {...input('phone', { type: 'tel', autoComplete: 'tel' })} />}
        </Field>
        <Field label="Company" error={errors.company} testId="settings-company">
          {(p) => <input {...p} {...input('company', { autoComplete: 'organization', maxLength: LIMITS.shortTextMax })} />}
        </Field>
        <Field label="Position" error={errors.position} testId="settings-position">
          {(p) => <input {...p} {...input('position', { autoComplete: 'organization-title', maxLength: LIMITS.shortTextMax })} />}
        </Field>
        <Field label="Timezone" error={errors.timezone} testId="settings-timezone">
          {(p) => (
            <select {...p} {...input('timezone')}>
              {!TIMEZONES.some((t) => t.value === form.timezone) && <option value={form.timezone}>{form.timezone}</option>}
              {TIMEZONES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Location" error={errors.location} testId="settings-location">
          {(p) => <input {...p} {...input('location', { maxLength: LIMITS.shortTextMax })} />}
        </Field>
        <Field label="Website" error={errors.website_url} testId="settings-website_url">
          {(p) => <input {...p} {...input('website_url', { type: 'url', placeholder: 'https://', autoComplete: 'url' })} />}
        </Field>
      </div>
      <Field label="Bio" error={errors.bio} hint={`${form.bio.length}/${LIMITS.bioMax}`} testId="settings-bio">
        {(p) => <textarea {...p} {...input('bio', { maxLength: LIMITS.bioMax, rows: 4 })} />}
      </Field>

      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={disabled} data-testid="settings-profile-save">
          {saving ? SETTINGS_MESSAGES.updating : 'Update Profile'}
        </button>
      </div>
    </form>
  );
}
