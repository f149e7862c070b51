// Schedule (spec sections 4, 7, 9): without an enabled schedule, choose daily, weekly or monthly, the
// time of day and time zone (and the weekday or day), saved with is_enabled true; with one, when it
// runs and its next run, and Disable Schedule, which deletes it.

import { useEffect, useState, type ReactElement } from 'react';
import { SCHEDULE_FREQUENCIES, type ScheduleFrequency } from '../../../shared/constants';
import type { ApiSummary, Schedule } from '../../../shared/contract';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../shared/messages';
import { deleteSchedule, getSchedule, saveSchedule } from '../api/scans';
import { Icon } from '../components/Icon';
import { LoadStatus, type Loadable } from '../components/LoadStatus';
import { Modal } from '../components/Modal';
import { useTransient } from '../hooks/useTransient';
import { capitalize, describeSchedule, WEEKDAYS, when } from '../lib/format';
import { apisStore } from '../stores/useApisStore';
import { currentAuth } from '../stores/useAuthStore';
import { MessageLine, reasonOf } from './shared';

const FREQUENCY_HINTS: Record<ScheduleFrequency, string> = {
  daily: 'Every day',
  weekly: 'Once a week',
  monthly: 'Once a month',
};

/** Not in the spec: the confirmation of a saved schedule. */
export const scheduleSaved = (frequency: ScheduleFrequency) => `Scan scheduled ${frequency}.`;

type Load = Loadable<{ schedule: Schedule | null }>;

/** This browser's zone, and every zone it knows, for the picker. */
function zones(): { here: string; all: string[] } {
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return { here, all: all.includes(here) ? all : [here, ...all] };
}

export function ScheduleModal({ api, onClose }: { api: ApiSummary; onClose(): void }): ReactElement {
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [frequency, setFrequency] = useState<ScheduleFrequency>('weekly');
  const [{ here, all: allZones }] = useState(zones);
  const [timeOfDay, setTimeOfDay] = useState('09:00');
  const [timeZone, setTimeZone] = useState(here);
  const [weekday, setWeekday] = useState(1);
  const [dayOfMonth, setDayOfMonth] = useState(1);
  const [saving, setSaving] = useState(false);
  const { message, show } = useTransient();

  useEffect(() => {
    const auth = currentAuth();
    if (!auth) return;
    const controller = new AbortController();
    getSchedule(auth, api.id, controller.signal)
      .then((res) => {
        if (res.ok) {
          const schedule = res.data?.schedule ?? null;
          if (schedule) setFrequency(schedule.frequency);
          setLoad({ kind: 'ready', schedule });
        } else setLoad({ kind: 'error', message: res.message || FALLBACK_MESSAGES.fetchSchedule });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setLoad({ kind: 'error', message: reasonOf(err, FALLBACK_MESSAGES.fetchSchedule) });
      });
    return () => controller.abort();
  }, [api.id]);

  const schedule = load.kind === 'ready' ? load.schedule : null;
  const enabled = !!schedule?.is_enabled;

  const save = async () => {
    const auth = currentAuth();
    if (!auth || saving) return;
    setSaving(true);
    try {
      const res = await saveSchedule(auth, api.id, frequency, {
        time_of_day: timeOfDay,
        time_zone: timeZone,
        ...(frequency === 'weekly' ? { weekday } : frequency === 'monthly' ? { day_of_month: dayOfMonth } : {}),
      });
      if (!res.ok || !res.data?.schedule) {
        show('error', res.message || FALLBACK_MESSAGES.saveSchedule);
        return;
      }
      setLoad({ kind: 'ready', schedule: res.data.schedule });
      show('success', res.message || scheduleSaved(frequency));
      void apisStore.getState().load(); // the card says when it runs
    } catch (err) {
      show('error', reasonOf(err, FALLBACK_MESSAGES.saveSchedule));
    } finally {
      setSaving(false);
    }
  };

  const disable = async () => {
    const auth = currentAuth();
    if (!auth || saving) return;
    setSaving(true);
    try {
      const res = await deleteSchedule(auth, api.id);
      if (!res.ok) {
        show('error', res.message || FALLBACK_MESSAGES.deleteSchedule);
        return;
      }
      setLoad({ kind: 'ready', schedule: null });
      show('success', API_MESSAGES.scheduleDisabled);
      void apisStore.getState().load();
    } catch (err) {
      show('error', reasonOf(err, FALLBACK_MESSAGES.deleteSchedule));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="Schedule Scan"
      subtitle={api.name}
      onClose={onClose}
      busy={saving}
      testId="schedule-modal"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose} disabled={saving}>
            Close
          </button>
          {load.kind === 'ready' &&
            (enabled ? (
              <button type="button" className="button button-danger-outline" onClick={() => void disable()} disabled={saving} data-testid="schedule-disable">
                {saving ? 'Disabling...' : 'Disable Schedule'}
              </button>
            ) : (
              <button type="button" className="button button-primary" onClick={() => void save()} disabled={saving} data-testid="schedule-save">
                <Icon name="calendar" size={16} />
                {saving ? 'Saving...' : 'Save Schedule'}
              </button>
            ))}
        </>
      }
    >
      <MessageLine message={message} testId="schedule-message" />
      <LoadStatus load={load} label="Loading schedule" errorTestId="schedule-error" />
      {load.kind === 'ready' &&
        (enabled && schedule ? (
          <div data-testid="schedule-enabled">
            <dl className="report-facts" style={{ gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' }}>
              <div>
                <dt>Runs</dt>
                <dd data-testid="schedule-frequency">{describeSchedule(schedule)}</dd>
              </div>
              <div>
                <dt>Next run</dt>
                <dd data-testid="schedule-next-run">{when(schedule.next_run_at)}</dd>
              </div>
              <div>
                <dt>Last run</dt>
                <dd>{schedule.last_run_at ? when(schedule.last_run_at) : 'Not yet'}</dd>
              </div>
            </dl>
            <p className="muted small" style={{ margin: 0 }}>
              Each run repeats the configuration and keys of this API&apos;s latest scan.
            </p>
          </div>
        ) : (
          <div data-testid="schedule-chooser">
            {schedule && !schedule.is_enabled && (
              <p className="muted small" data-testid="schedule-disabled-note">
                The {schedule.frequency} schedule of this API is disabled.
              </p>
            )}
            <fieldset className="radio-cards">
              <legend>How often should this API be scanned?</legend>
              {SCHEDULE_FREQUENCIES.map((f) => (
                <label key={f} className="radio-card">
                  <input type="radio" name="schedule-frequency" value={f} checked={frequency === f} onChange={() => setFrequency(f)} disabled={saving} data-testid={`schedule-${f}`} />
                  <span>
                    <strong>{capitalize(f)}</strong>
                    <span>{FREQUENCY_HINTS[f]}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <div className="form-grid schedule-when">
              {frequency === 'weekly' && (
                <div className="field">
                  <label htmlFor="schedule-weekday">On</label>
                  <select id="schedule-weekday" value={weekday} onChange={(e) => setWeekday(Number(e.target.value))} disabled={saving} data-testid="schedule-weekday">
                    {WEEKDAYS.map((d, i) => (
                      <option key={d} value={i + 1}>
                        {d}
                      </option>
                    ))}
                  </select>
                </div>
              )}
              {frequency === 'monthly' && (
                <div className="field">
                  <label htmlFor="schedule-day">On day</label>
                  <select id="schedule-day" value={dayOfMonth} onChange={(e) => setDayOfMonth(Number(e.target.value))} disabled={saving} data-testid="schedule-day">
                    {Array.from({ length: 31 }, (_, i) => (
                      <option key={i + 1} value={i + 1}>
                        {i + 1}
                        {i + 1 > 28 ? ' (or the month’s last day)' : ''}
                      </option>
                    ))}
                  </select>
                </div>
              )}
              <div className="field">
                <label htmlFor="schedule-time">At</label>
                <input id="schedule-time" type="time" value={timeOfDay} onChange={(e) => setTimeOfDay(e.target.value || '09:00')} disabled={saving} required data-testid="schedule-time" />
              </div>
              <div className="field">
                <label htmlFor="schedule-zone">Time zone</label>
                <select id="schedule-zone" value={timeZone} onChange={(e) => setTimeZone(e.target.value)} disabled={saving} data-testid="schedule-zone">
                  {allZones.map((z) => (
                    <option key={z} value={z}>
                      {z}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <p className="muted small" style={{ marginTop: 14, marginBottom: 0 }}>
              Scheduled scans repeat the configuration and keys of this API&apos;s latest scan, so run one scan by hand first.
            </p>
          </div>
        ))}
    </Modal>
  );
}
