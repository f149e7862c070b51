import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZE, MIN_SIZE, fitToDisplays, parseWindowState, windowStateFile } from './window-state';

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const monitorRight = { x: 1440, y: 0, width: 2560, height: 1400 };

describe('window state', () => {
  it('reads only a valid state; anything else gives none', () => {
    expect(parseWindowState('{"x":10,"y":20,"width":1200,"height":800,"maximized":true}')).toEqual({ x: 10, y: 20, width: 1200, height: 800, maximized: true });
    expect(parseWindowState('{"width":1200,"height":800}')).toEqual({ width: 1200, height: 800, maximized: false });
    for (const bad of ['', 'null', '[]', '{"width":"1200","height":800}', '{"width":-5,"height":800}', '{"width":1e9,"height":800}', '{"width":12.5,"height":800}', '{"__proto__":{"width":1}}']) {
      expect(parseWindowState(bad), bad).toBeNull();
    }
    // A half position is dropped, not half-used.
    expect(parseWindowState('{"x":10,"width":1200,"height":800}')).toEqual({ width: 1200, height: 800, maximized: false });
  });

  it('keeps a position that is visible on a display, clamped to it', () => {
    expect(fitToDisplays({ x: 1600, y: 100, width: 1300, height: 900, maximized: false }, [laptop, monitorRight], laptop)).toEqual({
      x: 1600, y: 100, width: 1300, height: 900, maximized: false,
    });
    // Too big for the laptop: shrunk to it and pulled inside.
    expect(fitToDisplays({ x: 100, y: 50, width: 3000, height: 2000, maximized: true }, [laptop], laptop)).toEqual({
      x: 0, y: 0, width: 1440, height: 875, maximized: true,
    });
  });

  it('centres the window on the primary display when its display is gone', () => {
    const fitted = fitToDisplays({ x: 3000, y: 200, width: 1300, height: 900, maximized: false }, [laptop], laptop);
    expect(fitted).toEqual({ x: 70, y: 0, width: 1300, height: 875, maximized: false });
    // Only a sliver visible counts as gone.
    expect(fitToDisplays({ x: 1400, y: 10, width: 1000, height: 700, maximized: false }, [laptop], laptop).x).toBe(220);
  });

  it('defaults, and never below the minimum size', () => {
    expect(fitToDisplays(null, [monitorRight], monitorRight)).toMatchObject({ ...DEFAULT_SIZE });
    expect(fitToDisplays({ width: 200, height: 100, maximized: false }, [laptop], laptop)).toMatchObject(MIN_SIZE);
  });

  it('is saved atomically and read back; a corrupt file reads as none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-ws-'));
    try {
      const file = path.join(dir, 'window-state.json');
      const store = windowStateFile(file);
      expect(store.load()).toBeNull();
      store.save({ x: 5, y: 6, width: 1000, height: 700, maximized: false });
      expect(store.load()).toEqual({ x: 5, y: 6, width: 1000, height: 700, maximized: false });
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(dir)).toEqual(['window-state.json']);
      fs.writeFileSync(file, '{"width": 1000, "hei');
      expect(store.load()).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
