// Finds and reads the TTF files the PDF reports embed (electron/reports/fonts/, copied next to the
// bundles by scripts/build-core.mjs). Read once per process and shared by every report.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FONT_FILES = {
  sans: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  mono: 'DejaVuSansMono.ttf',
  monoBold: 'DejaVuSansMono-Bold.ttf',
  /** CJK fallback: loaded only when a report holds characters the DejaVu fonts lack. */
  cjk: 'DroidSansFallbackFull.ttf',
} as const;

export type FontFileKey = keyof typeof FONT_FILES;

/**
 * Candidate folders: PORTCULLIS_FONTS_DIR, `fonts/` next to this module (the source tree, or a
 * bundle in dist/<shell>/ after the build copied them), then the source folder seen from a bundle
 * elsewhere in the checkout (benchmarks, scratch builds).
 */
export function fontDirCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // Next to this module, or next to the bundle when it is a split chunk (dist/core/chunks/).
  const list = [path.join(here, 'fonts'), path.join(here, '..', 'fonts')];
  for (let up = 1, dir = path.dirname(here); up <= 4; up += 1, dir = path.dirname(dir)) list.push(path.join(dir, 'electron', 'reports', 'fonts'));
  if (env.PORTCULLIS_FONTS_DIR) list.unshift(path.resolve(env.PORTCULLIS_FONTS_DIR));
  return list;
}

let fontDir: string | null = null;

export function findFontDir(): string {
  if (fontDir) return fontDir;
  const candidates = fontDirCandidates();
  const found = candidates.find((d) => fs.existsSync(path.join(d, FONT_FILES.sans)));
  if (!found) throw new Error(`Report fonts not found (looked in ${candidates.join(', ')}).`);
  fontDir = found;
  return found;
}

const buffers = new Map<FontFileKey, Buffer>();

export function fontBuffer(key: FontFileKey): Buffer {
  let b = buffers.get(key);
  if (!b) {
    b = fs.readFileSync(path.join(findFontDir(), FONT_FILES[key]));
    buffers.set(key, b);
  }
  return b;
}
