// setTimeout for components: every pending timer is cleared when the component unmounts, so a
// redirect or a message expiry never fires on a page the user already left.

import { useCallback, useEffect, useRef } from 'react';

export function useTimers(): { after(ms: number, fn: () => void): void; clearAll(): void } {
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const clearAll = useCallback(() => {
    timers.current.forEach(clearTimeout);
    timers.current.clear();
  }, []);
  const after = useCallback((ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.current.delete(t);
      fn();
    }, ms);
    timers.current.add(t);
  }, []);
  useEffect(() => clearAll, [clearAll]);
  return { after, clearAll };
}
