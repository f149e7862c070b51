// Window size and position across runs: a small JSON file in the data dir, validated on read (any
// garbage gives the defaults) and fitted to the displays that exist now (a monitor may be gone).

import fs from 'node:fs';
import path from 'node:path';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1280, height: 840 };
export const MIN_SIZE = { width: 900, height: 600 };
/** At least this much of the window (its title bar) must be on a display to keep the position. */
const VISIBLE = { width: 120, height: 40 };
const LIMIT = 100_000;

const int = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= LIMIT ? v : undefined;

/** The stored state, or null when the text is not a valid one. */
export function parseWindowState(text: string): WindowState | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  const width = int(o.width);
  const height = int(o.height);
  if (width === undefined || height === undefined || width <= 0 || height <= 0) return null;
  const x = int(o.x);
  const y = int(o.y);
  return {
    width,
    height,
    maximized: o.maximized === true,
    ...(x !== undefined && y !== undefined ? { x, y } : {}),
  };
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Bounds to open the window with: the stored size clamped to the display it is on (never below the
 * minimum), its position kept only when enough of it is visible on some display, else centred on the
 * primary one.
 */
export function fitToDisplays(state: WindowState | null, workAreas: Rect[], primary: Rect): WindowState {
  const base = state ?? { ...DEFAULT_SIZE, maximized: false };
  const placed =
    base.x !== undefined && base.y !== undefined
      ? workAreas.find((area) => {
          const o = overlap({ x: base.x!, y: base.y!, width: base.width, height: base.height }, area);
          return o.width >= VISIBLE.width && o.height >= VISIBLE.height;
        })
      : undefined;
  const area = placed ?? primary;
  const width = Math.max(MIN_SIZE.width, Math.min(base.width, area.width));
  const height = Math.max(MIN_SIZE.height, Math.min(base.height, area.height));
  if (placed) {
    // Keep it on that display: pull it back inside the work area where it hangs over an edge.
    const x = Math.min(Math.max(base.x!, area.x), area.x + area.width - Math.min(width, area.width));
    const y = Math.min(Math.max(base.y!, area.y), area.y + area.height - Math.min(height, area.height));
    return { x, y, width, height, maximized: base.maximized };
  }
  return {
    x: Math.round(area.x + (area.width - width) / 2),
    y: Math.round(area.y + (area.height - height) / 2),
    width,
    height,
    maximized: base.maximized,
  };
}

export interface WindowStateFile {
  load(): WindowState | null;
  save(state: WindowState): void;
}

/** Read once at start, written atomically (temp file + rename, mode 0600) when the window closes. */
export function windowStateFile(file: string): WindowStateFile {
  return {
    load() {
      try {
        return parseWindowState(fs.readFileSync(file, 'utf8'));
      } catch {
        return null;
      }
    },
    save(state) {
      const clean = parseWindowState(JSON.stringify(state));
      if (!clean) return;
      const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(tmp, `${JSON.stringify(clean)}\n`, { mode: 0o600 });
        fs.renameSync(tmp, file);
      } catch {
        fs.rmSync(tmp, { force: true });
      }
    },
  };
}
