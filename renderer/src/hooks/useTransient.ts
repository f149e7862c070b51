// A message that vanishes after the spec's 4000 ms (transient messages of API Management), for the
// dialogs: the page's toast sits behind an open modal dialog.

import { useCallback, useRef, useState } from 'react';
import { DELAYS } from '../../../shared/constants';
import { useTimers } from './useTimers';

export interface TransientMessage {
  kind: 'success' | 'error' | 'info';
  text: string;
}

export function useTransient(durationMs: number = DELAYS.transientMessageMs): {
  message: TransientMessage | null;
  show(kind: TransientMessage['kind'], text: string): void;
  clear(): void;
} {
  const [message, setMessage] = useState<TransientMessage | null>(null);
  const timers = useTimers();
  const seq = useRef(0);
  const show = useCallback(
    (kind: TransientMessage['kind'], text: string) => {
      const id = ++seq.current;
      setMessage({ kind, text });
      timers.after(durationMs, () => {
        if (seq.current === id) setMessage(null);
      });
    },
    [durationMs, timers],
  );
  const clear = useCallback(() => {
    seq.current++;
    setMessage(null);
  }, []);
  return { message, show, clear };
}
