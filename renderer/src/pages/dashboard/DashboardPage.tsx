// Dashboard (spec section 2): four figures, the week's scans and vulnerabilities per day (each API's
// last scan of the day), the top vulnerability types and the recent scans, over every API the user owns
// or has been shared.

import { useEffect, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { DashboardOverview } from '../../../../shared/contract';
import { displayName } from '../../../../shared/display';
import { LEVEL_NAMES, severityBucket, vulnerabilitiesText, type SeverityLevel } from '../../../../shared/severity';
import { DASHBOARD_MESSAGES } from '../../../../shared/messages';
import { getDashboardOverview } from '../../api/dashboard';
import { Icon } from '../../components/Icon';
import { LoadStatus, type Loadable } from '../../components/LoadStatus';
import { StatCard } from '../../components/StatCard';
import { barScale } from '../../lib/chart-scale';
import { capitalize, dayLabel, statusTone, when } from '../../lib/format';
import { currentAuth, useAuthStore } from '../../stores/useAuthStore';

type Load = Loadable<{ data: DashboardOverview }>;

function WeeklyChart({ days }: { days: DashboardOverview['scan_activity_weekly'] }): ReactElement {
  // Scans and vulnerabilities each get their own scale (a day of 40 findings would flatten a few
  // scans to nothing on a shared one), each scaled to its own maximum, at least 1, and labelled.
  const scans = days.map((d) => d.scans);
  const vulns = days.map((d) => d.vulnerabilities);
  const scaleScans = barScale(scans);
  const scaleVulns = barScale(vulns);
  const maxScans = scaleScans.max;
  const maxVulns = scaleVulns.max;
  const empty = [...scans, ...vulns].every((v) => !v);
  const summary = days.map((d) => `${dayLabel(d.day).long}: ${d.scans} scans, ${d.vulnerabilities} vulnerabilities`).join('; ');
  return (
    <figure className="chart-figure" style={{ margin: 0 }}>
      <div
        className="chart"
        role="img"
        aria-label={`Scans and vulnerabilities per day, each on its own scale (up to ${maxScans} scans, ${maxVulns} vulnerabilities). ${summary}`}
        data-testid="weekly-chart"
        data-max-scans={maxScans}
        data-max-vulns={maxVulns}
      >
        <span className="chart-max" aria-hidden="true" data-testid="chart-max-scans">
          <span className="legend-dot" style={{ background: 'var(--chart-scans)' }} />
          up to {maxScans} {maxScans === 1 ? 'scan' : 'scans'}
        </span>
        <span className="chart-max chart-max-right" aria-hidden="true" data-testid="chart-max-vulns">
          <span className="legend-dot" style={{ background: 'var(--chart-vulns)' }} />
          up to {maxVulns} {maxVulns === 1 ? 'vulnerability' : 'vulnerabilities'}
        </span>
        {empty && (
          <span className="chart-empty" aria-hidden="true">
            No scans in the last 7 days
          </span>
        )}
        {days.map((d) => (
          <div key={d.day} className="chart-day" data-testid="chart-day" data-day={d.day}>
            <div
              className="chart-bar scans"
              style={{ height: `${scaleScans(d.scans)}%` }}
              data-testid="bar-scans"
              data-value={d.scans}
              title={`${d.scans} scans`}
            >
              {d.scans > 0 && <span className="chart-bar-value">{d.scans}</span>}
            </div>
            <div
              className="chart-bar vulns"
              style={{ height: `${scaleVulns(d.vulnerabilities)}%` }}
              data-testid="bar-vulns"
              data-value={d.vulnerabilities}
              title={`${d.vulnerabilities} vulnerabilities`}
            >
              {d.vulnerabilities > 0 && <span className="chart-bar-value">{d.vulnerabilities}</span>}
            </div>
          </div>
        ))}
      </div>
      <div className="chart-labels" aria-hidden="true">
        {days.map((d) => (
          <span key={d.day}>{dayLabel(d.day).short}</span>
        ))}
      </div>
      <figcaption className="chart-legend">
        <span>
          <span className="legend-dot" style={{ background: 'var(--chart-scans)' }} />
          Scans
        </span>
        <span title="Per day, the vulnerabilities of each API's last scan that day">
          <span className="legend-dot" style={{ background: 'var(--chart-vulns)' }} />
          Vulnerabilities
        </span>
      </figcaption>
    </figure>
  );
}

export default function DashboardPage(): ReactElement {
  const user = useAuthStore((s) => s.user);
  const [load, setLoad] = useState<Load>({ kind: 'loading' });

  useEffect(() => {
    const auth = currentAuth();
    if (!auth) {
      setLoad({ kind: 'error', message: DASHBOARD_MESSAGES.loadFailed(DASHBOARD_MESSAGES.userIdRequired) });
      return;
    }
    const controller = new AbortController();
    getDashboardOverview(auth, controller.signal)
      .then((res) => {
        if (res.ok && res.data) setLoad({ kind: 'ready', data: res.data });
        else setLoad({ kind: 'error', message: DASHBOARD_MESSAGES.loadFailed(res.message || DASHBOARD_MESSAGES.loadFailedGeneric) });
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        const reason = err instanceof Error && err.message ? err.message : DASHBOARD_MESSAGES.loadFailedGeneric;
        setLoad({ kind: 'error', message: DASHBOARD_MESSAGES.loadFailed(reason) });
      });
    return () => controller.abort();
  }, []);

  const data = load.kind === 'ready' ? load.data : null;
  const topMax = barScale(data?.top_vuln_types.map((t) => t.count) ?? []);

  return (
    <div data-testid="dashboard-page">
      <div className="page-head">
        <div>
          <h1>Dashboard</h1>
          <p>
            Welcome back, <strong data-testid="dashboard-user">{displayName(user)}</strong>. Here is how your APIs are doing.
          </p>
        </div>
        <div className="page-actions">
          <Link to="/manage-apis" className="button button-primary">
            <Icon name="shield" size={18} />
            Manage APIs
          </Link>
        </div>
      </div>

      <LoadStatus load={load} label="Loading dashboard" errorTestId="dashboard-error" loadingTestId="dashboard-loading" />

      {data && (
        <>
          <div className="grid-4" style={{ marginBottom: 24 }}>
            <StatCard label="Total APIs Managed" value={data.total_apis} icon="layers" testId="stat-total-apis" />
            <StatCard label="Total Scans" value={data.total_scans} icon="activity" tone="accent" testId="stat-total-scans" />
            <StatCard label="Vulnerabilities" value={data.total_vulnerabilities} icon="bug" tone="warning" hint="Open, from each API's latest scan" testId="stat-vulnerabilities" />
            <StatCard label="Critical Alerts" value={data.critical_vulnerabilities} icon="alert" tone="danger" hint="CVSS 9.0 or higher" testId="stat-critical" />
          </div>

          <section className="panel" aria-labelledby="weekly-title">
            <div className="panel-head" style={{ marginBottom: 28 }}>
              <h2 id="weekly-title">Scan activity this week</h2>
              <span className="muted small">Last 7 days (UTC)</span>
            </div>
            <WeeklyChart days={data.scan_activity_weekly} />
          </section>

          <div className="grid-2" style={{ marginTop: 24 }}>
            <section className="panel" aria-labelledby="top-types-title" style={{ marginTop: 0 }}>
              <div className="panel-head">
                <h2 id="top-types-title">Top Vulnerability Types</h2>
              </div>
              {data.top_vuln_types.length === 0 ? (
                <p className="empty-state" data-testid="top-types-empty">
                  {DASHBOARD_MESSAGES.noVulnerabilities}
                </p>
              ) : (
                <ol className="rank-list" data-testid="top-types">
                  {data.top_vuln_types.map((t) => {
                    // A server from before levels sends only the band.
                    const level: SeverityLevel = t.level ?? severityBucket(t.severity);
                    return (
                      <li key={t.type} data-testid="top-type" data-severity={level}>
                        <div className="rank-head">
                          <strong>{t.type}</strong>
                          <span className={`sev sev-${level}`} title="Worst severity of this type">
                            {LEVEL_NAMES[level]}
                          </span>
                          <span className="count-chip">{t.count}</span>
                        </div>
                        <div className="progress" aria-hidden="true">
                          <div className="progress-bar" style={{ width: `${topMax(t.count)}%`, background: 'var(--chart-vulns)' }} />
                        </div>
                      </li>
                    );
                  })}
                </ol>
              )}
            </section>

            <section className="panel" aria-labelledby="recent-title" style={{ marginTop: 0 }}>
              <div className="panel-head">
                <h2 id="recent-title">Recent Scan Activity</h2>
                <Link to="/manage-apis" data-testid="recent-manage-link">
                  View all APIs
                </Link>
              </div>
              {data.recent_scans.length === 0 ? (
                <p className="empty-state" data-testid="recent-empty">
                  {DASHBOARD_MESSAGES.noRecentScans}
                </p>
              ) : (
                <ul className="activity-rows" data-testid="recent-scans">
                  {data.recent_scans.map((s) => (
                    <li key={s.id} data-testid="recent-scan" data-scan-id={s.id}>
                      <span style={{ minWidth: 0 }}>
                        <Link to={`/scans/${s.id}`} className="row-title" title={`Open the scan of ${s.apiName}`} data-testid="recent-scan-link">
                          {s.apiName}
                        </Link>
                        <span className="row-sub">{when(s.date)}</span>
                      </span>
                      <span className={`pill pill-${statusTone(s.status)}`}>{capitalize(s.status)}</span>
                      <span className="count-chip" title="Vulnerabilities" data-testid="recent-scan-vulnerabilities">
                        {vulnerabilitiesText(s.vulnerabilities)}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>
        </>
      )}
    </div>
  );
}
