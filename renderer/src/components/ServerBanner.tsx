// While the app is connected to a team server, every page says so (sync mode), with a way back.

import type { ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { useServerStore } from '../stores/useServerStore';
import '../styles/team-server.css';

export function ServerBanner(): ReactElement | null {
  const url = useServerStore((s) => s.url);
  const disconnect = useServerStore((s) => s.disconnect);
  const navigate = useNavigate();
  if (!url) return null;
  return (
    <div className="server-banner" role="status" data-testid="server-banner">
      <span className="server-banner-dot" aria-hidden="true" />
      <span>
        Team server: <strong data-testid="server-banner-host">{new URL(url).host}</strong>
      </span>
      <button
        type="button"
        className="server-banner-action"
        onClick={() => {
          disconnect();
          navigate('/login', { replace: true });
        }}
        data-testid="server-banner-disconnect"
      >
        Disconnect
      </button>
    </div>
  );
}
