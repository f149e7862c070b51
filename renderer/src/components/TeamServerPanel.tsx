// Settings → Team server (sync mode): connect this app to a team server, or back to local data.
// Connecting signs out here and sends the user to sign in on the server.

import { useState, type FormEvent, type ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { TEAM_SERVER_MESSAGES } from '../../../shared/messages';
import { useServerStore } from '../stores/useServerStore';
import { Alert } from './Alert';
import { FormField } from './FormField';
import '../styles/team-server.css';

export function TeamServerPanel(): ReactElement {
  const url = useServerStore((s) => s.url);
  const connect = useServerStore((s) => s.connect);
  const disconnect = useServerStore((s) => s.disconnect);
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onConnect = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    const outcome = await connect(input);
    setBusy(false);
    if (!outcome.ok) return setError(outcome.message);
    setInput('');
    navigate('/login', { replace: true });
  };

  const onDisconnect = () => {
    disconnect();
    navigate('/login', { replace: true });
  };

  return (
    <section className="team-server" aria-labelledby="team-server-title" data-testid="team-server-panel">
      <h2 id="team-server-title">Team server</h2>
      {url ? (
        <>
          <p data-testid="team-server-status">
            Connected to <strong>{new URL(url).host}</strong>: sign-in, APIs, scans and sharing use that server.
          </p>
          <button type="button" className="button button-secondary" onClick={onDisconnect} data-testid="team-server-disconnect">
            Disconnect
          </button>
        </>
      ) : (
        <>
          <p data-testid="team-server-status">
            Not connected: your data stays on this computer. Connect to your team&apos;s Portcullis server to share APIs and
            results.
          </p>
          <form className="form team-server-form" onSubmit={onConnect} noValidate>
            <FormField
              label="Server address"
              name="team-server-url"
              type="url"
              inputMode="url"
              placeholder="https://portcullis.example.com"
              autoComplete="url"
              value={input}
              onChange={(e) => {
                setInput(e.target.value);
                setError(null);
              }}
              invalid={!!error}
              errorId="team-server-error"
              disabled={busy}
              testId="team-server-url"
            />
            {error && (
              <Alert kind="error" testId="team-server-error">
                <span id="team-server-error">{error}</span>
              </Alert>
            )}
            <button type="submit" className="button button-primary" disabled={busy} data-testid="team-server-connect">
              {busy ? TEAM_SERVER_MESSAGES.connecting : 'Connect'}
            </button>
          </form>
        </>
      )}
    </section>
  );
}
