// Settings → Scan traffic (issue 27): the upstream proxy the user's scans go through (Burp, ZAP, an
// egress proxy) and the CA file of a TLS-intercepting proxy. The proxy's password is never shown: the
// form holds the URL without it, and saving leaves the stored password as it was unless a new one is typed.

import { useEffect, useId, useState, type ChangeEvent, type FormEvent, type ReactElement } from 'react';
import type { ScanTrafficSettings, UpdateScanTrafficRequest } from '../../../../shared/contract';
import { SETTINGS_MESSAGES } from '../../../../shared/messages';
import { checkProxyUrl, PROXY_LIMITS, SCAN_TRAFFIC_MESSAGES } from '../../../../shared/scan-traffic';
import * as settingsApi from '../../api/settings';
import { SecretInput } from '../../components/SecretInput';
import type { SettingsContext } from './types';

export function ScanTrafficPanel({ ctx }: { ctx: SettingsContext }): ReactElement {
  const id = useId();
  const [loaded, setLoaded] = useState<ScanTrafficSettings | null>(null);
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  /** A CA read from a chosen file, to save; null: keep the stored one; '' : remove it. */
  const [ca, setCa] = useState<string | null>(null);
  const [caName, setCaName] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const disabled = saving || ctx.disabled;

  const show = (s: ScanTrafficSettings) => {
    setLoaded(s);
    setUrl(s.proxy_url ?? '');
    setPassword('');
    setCa(null);
    setCaName('');
  };

  useEffect(() => {
    const token = ctx.token();
    if (!token) return;
    void settingsApi.getScanTraffic(token).then((res) => {
      if (res.ok) show(res.data.traffic);
      else if (res.sessionExpired) ctx.sessionExpired();
    });
    // Loaded once per visit, like the page's other settings.
  }, []);

  const pickCa = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > PROXY_LIMITS.caMaxBytes) {
      ctx.setBanner({ kind: 'error', text: `The CA file is too large (at most ${PROXY_LIMITS.caMaxBytes / 1024} KB).` });
      return;
    }
    setCa(await file.text());
    setCaName(file.name);
  };

  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    const token = ctx.token();
    if (!token) return ctx.missingToken();
    const trimmed = url.trim();
    if (trimmed) {
      const checked = checkProxyUrl(trimmed);
      if (!checked.ok) {
        setUrlError(checked.message);
        return;
      }
    }
    setUrlError(null);
    const body: UpdateScanTrafficRequest = { proxy_url: trimmed || null, ...(password ? { proxy_password: password } : {}), ...(ca !== null ? { ca_pem: ca || null } : {}) };
    setSaving(true);
    const res = await settingsApi.updateScanTraffic(token, body);
    setSaving(false);
    if (!res.ok) {
      if (res.sessionExpired) return ctx.sessionExpired();
      const field = res.errors.find((x) => x.field === 'proxy_url');
      if (field) setUrlError(field.message);
      ctx.setBanner({ kind: 'error', text: res.message });
      return;
    }
    show(res.data.traffic);
    ctx.setBanner({ kind: 'success', text: res.message || SCAN_TRAFFIC_MESSAGES.saved });
  };

  const caShown = ca !== null ? (ca ? `${caName} (saved when you click Save)` : 'none (removed when you click Save)') : loaded?.ca ? `${loaded.ca.subject}, valid until ${loaded.ca.valid_to.slice(0, 10)}` : 'none';
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 className="settings-section-title" id={`${id}-title`}>
        Scan traffic
      </h2>
      <p className="settings-section-lead">
        Send your scans through a proxy you already use (Burp, ZAP) to see and replay every request. Each scan&apos;s traffic can also be
        downloaded as a HAR file from its scan page.
      </p>
      {loaded?.server_proxy && (
        <p className="field-hint" data-testid="server-proxy">
          This server sends scans through {loaded.server_proxy} unless you set a proxy of your own.
        </p>
      )}
      <form className="form" onSubmit={(e) => void save(e)} noValidate autoComplete="off">
        <div className="field">
          <label htmlFor={`${id}-url`}>Proxy URL</label>
          <input
            id={`${id}-url`}
            type="url"
            value={url}
            placeholder="http://127.0.0.1:8080"
            onChange={(e) => setUrl(e.target.value)}
            disabled={disabled}
            aria-invalid={urlError ? true : undefined}
            aria-describedby={`${id}-url-hint`}
            spellCheck={false}
            data-testid="proxy-url"
          />
          <small id={`${id}-url-hint`} className={urlError ? 'field-error' : 'field-hint'} data-testid={urlError ? 'proxy-url-error' : undefined}>
            {urlError ??
              `An HTTP proxy: http://host:port, with user@ if it asks for credentials. Leave empty to scan directly${loaded && !loaded.local_proxy_allowed ? '; on this team server the proxy must have a public address' : ''}.`}
          </small>
        </div>
        <div className="field">
          <label htmlFor={`${id}-password`}>Proxy password (optional)</label>
          <SecretInput
            id={`${id}-password`}
            label="proxy password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={disabled}
            placeholder={loaded?.proxy_password_set ? 'Stored: type a new one to replace it' : ''}
            aria-describedby={`${id}-password-hint`}
            testId="proxy-password"
          />
          <small id={`${id}-password-hint`} className="field-hint">
            Kept with your other secrets and never shown again.
          </small>
        </div>
        <div className="field">
          <label htmlFor={`${id}-ca`}>CA certificate of an intercepting proxy (PEM, optional)</label>
          <input id={`${id}-ca`} type="file" accept=".pem,.crt,.cer,application/x-pem-file" onChange={(e) => void pickCa(e)} disabled={disabled} data-testid="proxy-ca" />
          <small className="field-hint" data-testid="proxy-ca-current">
            Trusted besides the system&apos;s certificates, so https targets can be scanned through Burp or ZAP. Current: {caShown}.
          </small>
          {(loaded?.ca || ca) && (
            <button type="button" className="button button-secondary button-small" onClick={() => setCa('')} disabled={disabled} data-testid="proxy-ca-remove">
              Remove the CA certificate
            </button>
          )}
        </div>
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={disabled || !loaded} data-testid="scan-traffic-save">
            {saving ? SETTINGS_MESSAGES.saving : 'Save Scan Traffic'}
          </button>
        </div>
      </form>
    </section>
  );
}
