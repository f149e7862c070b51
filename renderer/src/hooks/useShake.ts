// The shake effect of the sign-up form on an error. Uses the Web Animations API so each error
// replays it; skipped when the user asks for reduced motion. `data-shake-count` records each shake.

import { useCallback, useRef, type RefObject } from 'react';

const KEYFRAMES: Keyframe[] = [
  { transform: 'translateX(0)' },
  { transform: 'translateX(-8px)' },
  { transform: 'translateX(7px)' },
  { transform: 'translateX(-5px)' },
  { transform: 'translateX(3px)' },
  { transform: 'translateX(0)' },
];

export function useShake<T extends HTMLElement>(): { ref: RefObject<T | null>; shake(): void } {
  const ref = useRef<T | null>(null);
  const shake = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    el.dataset.shakeCount = String(Number(el.dataset.shakeCount ?? '0') + 1);
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    el.animate?.(KEYFRAMES, { duration: 420, easing: 'ease-in-out' });
  }, []);
  return { ref, shake };
}
