// Settings → Notifications and Preferences: the spec's preference fields, saved together with
// PUT /api/user/preferences; Reset Changes (after confirmation) returns to the last saved values.

import type { ReactElement } from 'react';
import { EMAIL_FREQUENCIES, SCAN_PROFILES, THEMES, type NotificationPreferences } from '../../../../shared/constants';
import { SETTINGS_MESSAGES } from '../../../../shared/messages';
import { Switch } from '../../components/Switch';
import { capitalize } from '../../lib/format';
import type { PreferencesControl } from './types';

const NOTIFICATIONS: { key: keyof NotificationPreferences; label: string; hint: string }[] = [
  { key: 'scanCompleted', label: 'Scan completed', hint: 'When a scan you started or scheduled finishes.' },
  { key: 'criticalFindings', label: 'Critical findings', hint: 'As soon as a scan finds a vulnerability with a CVSS score of 9.0 or more.' },
  { key: 'weeklyReport', label: 'Weekly report', hint: 'A summary of the week’s scans and open vulnerabilities.' },
  { key: 'productUpdates', label: 'Product updates', hint: 'New checks, import formats and features.' },
  { key: 'emailDigest', label: 'Email digest', hint: 'Group notifications into one email at the frequency below.' },
  { key: 'smsAlerts', label: 'SMS alerts', hint: 'Critical findings by text message (needs a phone number in your profile).' },
];

const THEME_LABELS: Record<(typeof THEMES)[number], string> = { auto: 'Match my system', light: 'Light', dark: 'Dark' };

function Actions({ prefs, disabled, section }: { prefs: PreferencesControl; disabled: boolean; section: string }): ReactElement {
  return (
    <div className="form-actions">
      <button type="button" className="button button-secondary" onClick={prefs.reset} disabled={disabled || !prefs.dirty} data-testid={`prefs-reset-${section}`}>
        Reset Changes
      </button>
      <button type="button" className="button button-primary" onClick={() => void prefs.save()} disabled={disabled} data-testid={`prefs-save-${section}`}>
        {prefs.saving ? SETTINGS_MESSAGES.saving : section === 'notifications' ? 'Save Notifications' : 'Save Preferences'}
      </button>
    </div>
  );
}

export function PreferencesPanel({
  section,
  prefs,
  disabled: ending,
}: {
  section: 'notifications' | 'preferences';
  prefs: PreferencesControl;
  disabled: boolean;
}): ReactElement {
  const disabled = prefs.saving || ending;
  if (section === 'notifications') {
    const n = prefs.draft.notifications;
    return (
      <section aria-labelledby="notifications-title">
        <h2 className="settings-section-title" id="notifications-title">
          Notifications
        </h2>
        <p className="settings-section-lead">Choose what we tell you about, and how.</p>
        {NOTIFICATIONS.map((item) => (
          <Switch
            key={item.key}
            label={item.label}
            hint={item.hint}
            checked={n[item.key]}
            onChange={(v) => prefs.edit('notifications', item.key, v)}
            disabled={disabled}
            testId={`pref-${item.key}`}
          />
        ))}
        <Actions prefs={prefs} disabled={disabled} section="notifications" />
      </section>
    );
  }
  const p = prefs.draft.preferences;
  return (
    <section aria-labelledby="preferences-title">
      <h2 className="settings-section-title" id="preferences-title">
        Preferences
      </h2>
      <p className="settings-section-lead">How the app looks and the defaults it uses.</p>
      <div className="form-grid" style={{ marginBottom: 8 }}>
        <div className="field">
          <label htmlFor="pref-theme">Theme</label>
          <select id="pref-theme" value={p.theme} onChange={(e) => prefs.edit('preferences', 'theme', e.target.value as typeof p.theme)} disabled={disabled} data-testid="pref-theme">
            {THEMES.map((t) => (
              <option key={t} value={t}>
                {THEME_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="pref-profile">Default scan profile</label>
          <select
            id="pref-profile"
            value="owasp"
            onChange={() => prefs.edit('preferences', 'defaultScanProfile', 'owasp')}
            disabled={disabled}
            data-testid="pref-defaultScanProfile"
          >
            {/* The one profile; its preference value is "owasp" (spec section 9). */}
            <option value="owasp">{SCAN_PROFILES[0].label}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="pref-email-frequency">Email frequency</label>
          <select
            id="pref-email-frequency"
            value={p.emailFrequency}
            onChange={(e) => prefs.edit('preferences', 'emailFrequency', e.target.value as typeof p.emailFrequency)}
            disabled={disabled}
            data-testid="pref-emailFrequency"
          >
            {EMAIL_FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {capitalize(f)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Switch
        label="Auto-save reports"
        hint="Keep the reports of every completed scan ready to download."
        checked={p.autoSaveReports}
        onChange={(v) => prefs.edit('preferences', 'autoSaveReports', v)}
        disabled={disabled}
        testId="pref-autoSaveReports"
      />
      <Actions prefs={prefs} disabled={disabled} section="preferences" />
    </section>
  );
}
