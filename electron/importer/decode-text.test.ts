import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeText, firstInvalidUtf8 } from './decode-text';
import { ImportError } from './errors';

const validUtf8 = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe('UTF-8 validation', () => {
  it('agrees with the platform decoder on random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      expect(firstInvalidUtf8(bytes) === -1).toBe(validUtf8(bytes));
    }), { numRuns: 2_000 });
  });

  it('accepts every string the platform encodes, and finds a damaged byte', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.nat(), (s, at) => {
      const bytes = new TextEncoder().encode(s);
      expect(firstInvalidUtf8(bytes)).toBe(-1);
      if (!bytes.length) return;
      const damaged = bytes.slice();
      damaged[at % bytes.length] = 0xff;
      expect(firstInvalidUtf8(damaged)).toBeGreaterThanOrEqual(0);
      expect(firstInvalidUtf8(damaged)).toBeLessThanOrEqual(at % bytes.length);
    }));
  });

  it('decodes text and refuses invalid bytes with their place', () => {
    expect(decodeText(new TextEncoder().encode('ünïcode'))).toBe('ünïcode');
    expect(() => decodeText(new Uint8Array([0x61, 0x0a, 0x62, 0xc3]))).toThrow(ImportError);
    expect(() => decodeText(new Uint8Array([0x61, 0x0a, 0x62, 0xc3]))).toThrow(/invalid byte 0xC3 at offset 3\. Save it as UTF-8 and try again \(at line 2, column 2\)\.$/);
  });
});
