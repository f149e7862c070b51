// Scroll-in animation: elements marked `.reveal` inside the container get `.is-visible` the first
// time at least 10% of them is in view (spec section 2, threshold 0.1).

import { useEffect, type RefObject } from 'react';
import { SCROLL_ANIMATION_THRESHOLD } from '../../../shared/constants';

export function useReveal(container: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = container.current;
    if (!root) return;
    const targets = Array.from(root.querySelectorAll<HTMLElement>('.reveal'));
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    if (reduced || typeof IntersectionObserver === 'undefined') {
      targets.forEach((el) => el.classList.add('is-visible'));
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          entry.target.classList.add('is-visible');
          observer.unobserve(entry.target);
        }
      },
      { threshold: SCROLL_ANIMATION_THRESHOLD },
    );
    targets.forEach((el) => observer.observe(el));
    return () => observer.disconnect();
  }, [container]);
}
