// Bytes of an uploaded file -> text. UTF-8 (with or without a BOM) and UTF-16 with a BOM are
// accepted; anything else is refused with the place of the first byte that is not valid UTF-8.

import { ImportError, lineColumn } from './errors';

/** Offset of the first byte that breaks UTF-8 (overlongs, surrogates and > U+10FFFF included), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    let cp: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
      cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
      cp = b & 0x0f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
      cp = b & 0x07;
    } else return i;
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

function lineColumnOfByte(bytes: Uint8Array, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i += 1) {
    if (bytes[i] === 0x0a) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return lineColumn(line, offset - lineStart + 1);
}

export function decodeText(bytes: Uint8Array): string {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    const encoding = bytes[0] === 0xff ? 'utf-16le' : 'utf-16be';
    try {
      return new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw new ImportError(`The file starts with a ${encoding.toUpperCase()} byte order mark but is not valid ${encoding.toUpperCase()} text.`);
    }
  }
  try {
    // The decoder drops a UTF-8 BOM itself.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const byte = at >= 0 ? ` 0x${bytes[at]!.toString(16).toUpperCase().padStart(2, '0')}` : '';
    throw new ImportError(
      `The file is not valid UTF-8 text: invalid byte${byte} at offset ${Math.max(at, 0)}. Save it as UTF-8 and try again.`,
      at >= 0 ? lineColumnOfByte(bytes, at) : '',
    );
  }
}
