// The handle between the scan page's list and detail panes (issue 31 item 2): dragged with the pointer
// or moved with the arrow keys (Home and End for the limits), it sets the list's share of the width,
// which the page keeps for the next visit.

import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactElement } from 'react';
import { browserStorage } from '../../stores/storage';

const STORAGE_KEY = 'portcullis.scanListWidth';
export const LIST_WIDTH = { min: 25, max: 70, initial: 40, step: 2 } as const;

const clamp = (n: number): number => Math.min(LIST_WIDTH.max, Math.max(LIST_WIDTH.min, Math.round(n)));

/** The list's share of the width (percent), as last left; the initial share otherwise. */
export function useListWidth(): [number, (n: number) => void] {
  const [width, setWidth] = useState(() => {
    const stored = Number(browserStorage().getItem(STORAGE_KEY));
    return Number.isFinite(stored) && stored > 0 ? clamp(stored) : LIST_WIDTH.initial;
  });
  const set = useCallback((n: number) => {
    const next = clamp(n);
    setWidth(next);
    browserStorage().setItem(STORAGE_KEY, String(next));
  }, []);
  return [width, set];
}

export function PaneSplitter({ width, onWidth, controls }: { width: number; onWidth(n: number): void; controls: string }): ReactElement {
  const dragging = useRef(false);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!dragging.current) return;
    const box = e.currentTarget.parentElement?.getBoundingClientRect();
    if (box && box.width > 0) onWidth(((e.clientX - box.left) / box.width) * 100);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = false;
    e.currentTarget.releasePointerCapture(e.pointerId);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next =
      e.key === 'ArrowLeft' ? width - LIST_WIDTH.step : e.key === 'ArrowRight' ? width + LIST_WIDTH.step : e.key === 'Home' ? LIST_WIDTH.min : e.key === 'End' ? LIST_WIDTH.max : null;
    if (next === null) return;
    e.preventDefault();
    e.stopPropagation();
    onWidth(next);
  };
  return (
    <div
      className="pane-splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the findings list"
      aria-controls={controls}
      aria-valuemin={LIST_WIDTH.min}
      aria-valuemax={LIST_WIDTH.max}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onKeyDown={onKeyDown}
      data-testid="pane-splitter"
    />
  );
}
