// Settings (spec sections 2-5, 7, 8): Profile, Notifications, Security and Preferences tabs. Every call
// carries the bearer token; without one, or after a "Session expired" answer, the page says so and
// signs the user out after 3 s.

import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { DEFAULT_PREFERENCES, DELAYS, EMPTY_EXTENDED_PROFILE, mergePreferences, STORAGE_KEYS, type Preferences } from '../../../../shared/constants';
import type { ExtendedProfile } from '../../../../shared/contract';
import { API_MESSAGES, SETTINGS_MESSAGES } from '../../../../shared/messages';
import { desktopBridge } from '../../api/request';
import * as settingsApi from '../../api/settings';
import { Alert } from '../../components/Alert';
import { Icon, type IconName } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { TeamServerPanel } from '../../components/TeamServerPanel';
import { useTimers } from '../../hooks/useTimers';
import { browserStorage } from '../../stores/storage';
import { useAuthStore } from '../../stores/useAuthStore';
import { useThemeStore } from '../../stores/useThemeStore';
import { userZoneStore } from '../../stores/useUserZoneStore';
import { PreferencesPanel } from './PreferencesPanel';
import { ProfileTab } from './ProfileTab';
import { ScanTrafficPanel } from './ScanTrafficPanel';
import { SecurityTab } from './SecurityTab';
import type { Banner, PreferencesControl, SettingsContext } from './types';

const PREFERENCES_SAVED = 'Preferences updated successfully';

/** Settings calls take the token from local storage (spec section 6), at the moment of each call. */
const readToken = (): string | null => browserStorage().getItem(STORAGE_KEYS.authToken);

type TabId = 'profile' | 'notifications' | 'security' | 'preferences' | 'scan-traffic' | 'team-server';

const ALL_TABS: { id: TabId; label: string; icon: IconName }[] = [
  { id: 'profile', label: 'Profile', icon: 'user' },
  { id: 'notifications', label: 'Notifications', icon: 'bell' },
  { id: 'security', label: 'Security', icon: 'lock' },
  { id: 'preferences', label: 'Preferences', icon: 'sliders' },
  // Issue 27: the proxy scans go through (Burp, ZAP), per user.
  { id: 'scan-traffic', label: 'Scan traffic', icon: 'activity' },
  // Sync mode (docs/desktop.md): which server this app talks to. Desktop only: a browser already is on a server.
  { id: 'team-server', label: 'Team server', icon: 'server' },
];

export default function SettingsPage(): ReactElement {
  const TABS = desktopBridge() ? ALL_TABS : ALL_TABS.filter((t) => t.id !== 'team-server');
  const logout = useAuthStore((s) => s.logout);
  const navigate = useNavigate();
  const timers = useTimers();
  const [tab, setTab] = useState<TabId>('profile');
  const [banner, setBannerState] = useState<Banner | null>(null);
  const [ending, setEnding] = useState(false);
  const [loading, setLoading] = useState(true);
  const [extended, setExtended] = useState<ExtendedProfile>(EMPTY_EXTENDED_PROFILE);
  // Accepted-risk end dates are picked and shown in the zone saved here.
  const onProfileSaved = useCallback((profile: ExtendedProfile) => {
    setExtended(profile);
    userZoneStore.getState().setFromSettings(profile.timezone);
  }, []);
  /** Preferences as last loaded or saved, and the edits of the three panels that show them. */
  const [savedPrefs, setSavedPrefs] = useState<Preferences>(DEFAULT_PREFERENCES);
  const [draftPrefs, setDraftPrefs] = useState<Preferences>(DEFAULT_PREFERENCES);
  const [savingPrefs, setSavingPrefs] = useState(false);
  const setTheme = useThemeStore((s) => s.setDarkMode);
  const tabRefs = useRef<Record<TabId, HTMLButtonElement | null>>({ profile: null, notifications: null, security: null, preferences: null, 'scan-traffic': null, 'team-server': null });
  const bannerSeq = useRef(0);

  const setBanner = useCallback(
    (next: Banner | null) => {
      const id = ++bannerSeq.current;
      setBannerState(next);
      // Successes fade after the spec's 5 s; errors stay until the next action.
      if (next?.kind === 'success') timers.after(DELAYS.settingsSuccessBannerMs, () => bannerSeq.current === id && setBannerState(null));
    },
    [timers],
  );

  /** Ends the session after the spec's 3 s, showing why in the meantime. */
  const endSession = useCallback(
    (message: string) => {
      setBanner({ kind: 'error', text: message });
      setEnding(true);
      timers.after(DELAYS.sessionExpiredRedirectMs, () => {
        logout();
        navigate('/login', { replace: true });
      });
    },
    [logout, navigate, setBanner, timers],
  );

  const ctx: SettingsContext = {
    token: readToken,
    disabled: ending,
    setBanner,
    missingToken: () => endSession(SETTINGS_MESSAGES.tokenMissing),
    sessionExpired: () => endSession(SETTINGS_MESSAGES.sessionExpired),
  };

  const prefs: PreferencesControl = {
    draft: draftPrefs,
    dirty: JSON.stringify(draftPrefs) !== JSON.stringify(savedPrefs),
    saving: savingPrefs,
    edit: (section, key, value) =>
      setDraftPrefs((d) => ({ ...d, [section]: { ...d[section], [key]: value } }) as Preferences),
    async save() {
      const token = readToken();
      if (!token) return ctx.missingToken();
      setSavingPrefs(true);
      const res = await settingsApi.updatePreferences(token, draftPrefs);
      setSavingPrefs(false);
      if (!res.ok) {
        if (res.sessionExpired) return ctx.sessionExpired();
        setBanner({ kind: 'error', text: res.message });
        return;
      }
      const saved = mergePreferences(res.data?.preferences ?? draftPrefs);
      setSavedPrefs(saved);
      setDraftPrefs(saved);
      // A theme chosen here applies at once; "auto" leaves the header's switch in charge.
      if (saved.preferences.theme !== 'auto') setTheme(saved.preferences.theme === 'dark');
      setBanner({ kind: 'success', text: res.message || PREFERENCES_SAVED });
    },
    reset() {
      if (!window.confirm(API_MESSAGES.confirmReset)) return;
      setDraftPrefs(savedPrefs);
    },
  };

  useEffect(() => {
    const token = readToken();
    if (!token) {
      setLoading(false);
      endSession(SETTINGS_MESSAGES.tokenMissing);
      return;
    }
    let live = true;
    void Promise.all([settingsApi.getExtendedProfile(token), settingsApi.getPreferences(token)]).then(([profileRes, prefsRes]) => {
      if (!live) return;
      setLoading(false);
      if ((!profileRes.ok && profileRes.sessionExpired) || (!prefsRes.ok && prefsRes.sessionExpired)) {
        endSession(SETTINGS_MESSAGES.sessionExpired);
        return;
      }
      if (profileRes.ok && profileRes.data?.profile) {
        setExtended({ ...EMPTY_EXTENDED_PROFILE, ...profileRes.data.profile });
        userZoneStore.getState().setFromSettings(profileRes.data.profile.timezone ?? '');
      }
      if (prefsRes.ok && prefsRes.data?.preferences) {
        const loaded = mergePreferences(prefsRes.data.preferences);
        setSavedPrefs(loaded);
        setDraftPrefs(loaded);
      }
      if (!profileRes.ok || !prefsRes.ok) setBanner({ kind: 'error', text: SETTINGS_MESSAGES.loadFailed });
    });
    return () => {
      live = false;
    };
    // Loaded once per visit: the token only changes by signing in again, which leaves this page.
  }, []);

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    let next = index + delta;
    if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = TABS.length - 1;
    else if (!delta) return;
    e.preventDefault();
    const target = TABS[(next + TABS.length) % TABS.length]!;
    setTab(target.id);
    tabRefs.current[target.id]?.focus();
  };

  return (
    <div className="settings-layout" data-testid="settings-page">
      <div className="page-head">
        <div>
          <h1>Settings</h1>
          <p>Your profile, notifications, password, preferences, scan traffic and team server.</p>
        </div>
      </div>

      {banner && (
        <Alert kind={banner.kind} testId={banner.kind === 'error' ? 'settings-error' : 'settings-success'}>
          {banner.text}
        </Alert>
      )}

      <div className="tabs" role="tablist" aria-label="Settings sections">
        {TABS.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            className="tab"
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={(e) => onTabKey(e, i)}
            data-testid={`settings-tab-${t.id}`}
          >
            <Icon name={t.icon} size={16} />
            {t.label}
          </button>
        ))}
      </div>

      {loading ? (
        <div className="panel loading-block">
          <Spinner label="Loading settings" />
        </div>
      ) : (
        // Every panel stays mounted so edits survive a change of tab.
        TABS.map((t) => (
          <div
            key={t.id}
            className="panel"
            role="tabpanel"
            id={`panel-${t.id}`}
            aria-labelledby={`tab-${t.id}`}
            hidden={tab !== t.id}
            data-testid={`settings-panel-${t.id}`}
          >
            {t.id === 'profile' ? (
              <ProfileTab ctx={ctx} extended={extended} onSaved={onProfileSaved} />
            ) : t.id === 'security' ? (
              <SecurityTab ctx={ctx} prefs={prefs} />
            ) : t.id === 'team-server' ? (
              <TeamServerPanel />
            ) : t.id === 'scan-traffic' ? (
              <ScanTrafficPanel ctx={ctx} />
            ) : (
              <PreferencesPanel section={t.id} prefs={prefs} disabled={ending} />
            )}
          </div>
        ))
      )}
    </div>
  );
}
