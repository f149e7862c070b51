// Text for the PDF reports: the embedded fonts, per-character fallback (DejaVu, then a CJK font),
// measuring, line wrapping with hard breaks for long tokens, and writing text into pages.
//
// Why not pdfkit's own text(): with an embedded TTF it shapes every word through fontkit's
// OpenType engine, which costs ~50 us per line here and would put a 1,000-finding technical report
// far past its 2 s budget. Reports need no shaping (no ligatures in evidence, no complex scripts),
// so text is encoded straight from each font's character map into pdfkit's subset and written as
// plain Tj operators. This reads a few pdfkit internals (the embedded font's fontkit object, subset,
// widths and unicode tables); `fontHandle` checks they are there so a pdfkit upgrade that moves them
// fails loudly in the tests instead of producing broken PDFs.

import zlib from 'node:zlib';
import type PDFDocument from 'pdfkit';
import { fontBuffer, type FontFileKey } from '../fonts';
import { showBidiControls } from '../format';

export type Doc = InstanceType<typeof PDFDocument>;

/** The faces reports use; each has a fallback chain for characters it lacks. */
export type FontName = 'sans' | 'bold' | 'mono' | 'monoBold';

const CHAINS: Record<FontName, FontFileKey[]> = {
  sans: ['sans', 'cjk'],
  bold: ['bold', 'sans', 'cjk'],
  mono: ['mono', 'sans', 'cjk'],
  monoBold: ['monoBold', 'mono', 'sans', 'cjk'],
};

interface FontkitGlyph {
  id: number;
  advanceWidth: number;
}
interface EmbeddedFontInternals {
  id: string;
  scale: number;
  ascender: number;
  descender: number;
  font: { glyphForCodePoint(cp: number): FontkitGlyph; hasGlyphForCodePoint(cp: number): boolean };
  subset: { includeGlyph(id: number): number };
  widths: number[];
  unicode: number[][];
  ref(): unknown;
}

const BMP = 0x10000;

/**
 * A growable byte buffer for a page's content stream. Glyph codes go in as raw bytes: building
 * them as strings made millions of tiny string fragments per large report (most of its GC time).
 */
export class ByteSink {
  /** Pages are written into shared slabs and handed to pdfkit as views: no allocation per page. */
  private static readonly SLAB = 1024 * 1024;
  private buf: Buffer = Buffer.allocUnsafe(ByteSink.SLAB);
  private start = 0;
  private end = 0;

  get length(): number {
    return this.end - this.start;
  }

  private room(n: number): void {
    if (this.end + n <= this.buf.length) return;
    const pending = this.end - this.start;
    const next = Buffer.allocUnsafe(Math.max(ByteSink.SLAB, (pending + n) * 2));
    this.buf.copy(next, 0, this.start, this.end);
    this.buf = next;
    this.start = 0;
    this.end = pending;
  }

  /** ASCII text (operators and numbers). */
  ascii(s: string): void {
    this.room(s.length);
    this.end += this.buf.write(s, this.end, 'latin1');
  }

  /** A number with at most two decimals, in its shortest form (as `num()` writes it), without a string. */
  number(v: number): void {
    this.room(24);
    let n = Math.round(v * 100);
    if (n < 0) {
      this.buf[this.end++] = 0x2d;
      n = -n;
    }
    const int = Math.floor(n / 100);
    const frac = n % 100;
    let digits = 1;
    for (let i = int; i >= 10; i = Math.floor(i / 10)) digits += 1;
    for (let i = int, p = this.end + digits - 1; p >= this.end; i = Math.floor(i / 10), p -= 1) this.buf[p] = 0x30 + (i % 10);
    this.end += digits;
    if (frac) {
      this.buf[this.end++] = 0x2e;
      this.buf[this.end++] = 0x30 + Math.floor(frac / 10);
      if (frac % 10) this.buf[this.end++] = 0x30 + (frac % 10);
    }
  }

  /** Makes room for `n` more bytes (callers writing many bytes reserve once). */
  reserve(n: number): void {
    this.room(n);
  }

  /** One byte inside a PDF literal string: "(", ")" and "\\" escaped, line ends as \\n and \\r. Needs 2 bytes reserved. */
  literalByte(b: number): void {
    if (b === 0x28 || b === 0x29 || b === 0x5c) {
      this.buf[this.end++] = 0x5c;
      this.buf[this.end++] = b;
    } else if (b === 0x0a || b === 0x0d) {
      this.buf[this.end++] = 0x5c;
      this.buf[this.end++] = b === 0x0a ? 0x6e : 0x72;
    } else this.buf[this.end++] = b;
  }

  /** The bytes written since the last take(), as a view pdfkit keeps until the page is finished. */
  take(): Buffer {
    const out = this.buf.subarray(this.start, this.end);
    this.start = this.end;
    return out;
  }
}

/** One embedded font, with cached advances and glyph codes (typed arrays for the BMP). */
export class FontHandle {
  private readonly bmpAdvance = new Float32Array(BMP).fill(Number.NaN);
  /** 0 unknown, 1 has a glyph, 2 has none. */
  private readonly bmpCoverage = new Uint8Array(BMP);
  /** Subset glyph id of each BMP character; -1 not registered yet. */
  private readonly bmpGids = new Int32Array(BMP).fill(-1);
  private readonly astral = new Map<number, { advance: number; has: boolean; gid?: number }>();

  constructor(
    readonly key: FontFileKey,
    private readonly f: EmbeddedFontInternals,
  ) {}

  get id(): string {
    return this.f.id;
  }

  has(cp: number): boolean {
    if (cp < BMP) {
      let v = this.bmpCoverage[cp]!;
      if (v === 0) {
        v = this.f.font.hasGlyphForCodePoint(cp) ? 1 : 2;
        this.bmpCoverage[cp] = v;
      }
      return v === 1;
    }
    return this.astralInfo(cp).has;
  }

  private astralInfo(cp: number): { advance: number; has: boolean; gid?: number } {
    let a = this.astral.get(cp);
    if (!a) {
      a = { advance: this.f.font.glyphForCodePoint(cp).advanceWidth * this.f.scale, has: this.f.font.hasGlyphForCodePoint(cp) };
      this.astral.set(cp, a);
    }
    return a;
  }

  /** Advance width in 1/1000 em. */
  advance(cp: number): number {
    if (cp < BMP) {
      const a = this.bmpAdvance[cp]!;
      if (a === a) return a;
      const v = this.f.font.glyphForCodePoint(cp).advanceWidth * this.f.scale;
      this.bmpAdvance[cp] = v;
      return v;
    }
    return this.astralInfo(cp).advance;
  }

  /** Registers the character's glyph in pdfkit's subset (width and ToUnicode entry too); its subset id. */
  private gid(cp: number): number {
    const glyph = this.f.font.glyphForCodePoint(cp);
    const gid = this.f.subset.includeGlyph(glyph.id);
    if (this.f.widths[gid] === undefined) this.f.widths[gid] = glyph.advanceWidth * this.f.scale;
    if (this.f.unicode[gid] === undefined) this.f.unicode[gid] = [cp];
    return gid;
  }

  /** Writes the text's two-byte glyph codes into a literal string being built in `sink`. */
  encodeInto(sink: ByteSink, text: string): void {
    // At most two escaped bytes (4) per UTF-16 unit.
    sink.reserve(text.length * 4);
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      let gid: number;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const cp = text.codePointAt(i)!;
        i += 1;
        const info = this.astralInfo(cp);
        info.gid ??= this.gid(cp);
        gid = info.gid;
      } else {
        gid = this.bmpGids[c]!;
        if (gid < 0) {
          gid = this.gid(c);
          this.bmpGids[c] = gid;
        }
      }
      sink.literalByte(gid >> 8);
      sink.literalByte(gid & 0xff);
    }
  }

  /** The font dictionary pdfkit embeds; a page using the font must list it. */
  ref(): unknown {
    return this.f.ref();
  }
}

function fontHandle(doc: Doc, key: FontFileKey): FontHandle {
  const name = `pc-${key}`;
  doc.registerFont(name, fontBuffer(key));
  doc.font(name);
  const f = (doc as unknown as { _font?: Partial<EmbeddedFontInternals> })._font;
  if (
    !f ||
    typeof f.id !== 'string' ||
    typeof f.scale !== 'number' ||
    typeof f.font?.glyphForCodePoint !== 'function' ||
    typeof f.font?.hasGlyphForCodePoint !== 'function' ||
    typeof f.subset?.includeGlyph !== 'function' ||
    !Array.isArray(f.widths) ||
    !Array.isArray(f.unicode) ||
    typeof f.ref !== 'function'
  ) {
    throw new Error('pdfkit internals changed: update electron/reports/pdf/typeset.ts (embedded font shape).');
  }
  return new FontHandle(key, f as EmbeddedFontInternals);
}

export interface Run {
  font: FontHandle;
  text: string;
  /** Advance of the run in 1/1000 em. */
  units: number;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text as a PDF can show it: NFC, no control characters or lone surrogates, tabs as spaces. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const NEEDS_CLEANING = /[\r\t\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ud800-\udfff]/;
/** Printable ASCII and newlines: nothing to clean or normalise. */
const PLAIN_ASCII = /^[\n\u0020-\u007e]*$/;

export function cleanText(text: string, tabSize = 4): string {
  if (PLAIN_ASCII.test(text)) return text;
  if (!NEEDS_CLEANING.test(text)) return showBidiControls(text.normalize('NFC'));
  return showBidiControls(text)
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' '.repeat(tabSize))
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(CONTROL, '\ufffd')
    .normalize('NFC');
}

/** A face with its fallback chain, and per-character caches of which font draws it and how wide. */
class Face {
  /** Index into the chain of the font drawing each BMP character; -1 not known yet. */
  readonly pick = new Int8Array(BMP).fill(-1);
  /** Advance (1/1000 em) of each BMP character in the font that draws it; NaN not known yet. */
  readonly adv = new Float32Array(BMP).fill(Number.NaN);
  constructor(readonly chain: FontFileKey[]) {}
}

export class Typesetter {
  private readonly handles = new Map<FontFileKey, FontHandle>();
  private readonly faces: Record<FontName, Face> = {
    sans: new Face(CHAINS.sans),
    bold: new Face(CHAINS.bold),
    mono: new Face(CHAINS.mono),
    monoBold: new Face(CHAINS.monoBold),
  };

  constructor(readonly doc: Doc) {
    // The faces every report uses are registered up front; the CJK fallback only on first need.
    for (const key of ['sans', 'bold', 'mono', 'monoBold'] as const) this.handle(key);
  }

  handle(key: FontFileKey): FontHandle {
    let h = this.handles.get(key);
    if (!h) {
      h = fontHandle(this.doc, key);
      this.handles.set(key, h);
    }
    return h;
  }

  /** Index in the face's chain of the font that draws `cp` (the first font when none has it). */
  private pickIndex(face: Face, cp: number): number {
    if (cp < BMP) {
      const p = face.pick[cp]!;
      if (p >= 0) return p;
    }
    let idx = 0;
    // ASCII is in every primary face: no lookups.
    if (cp >= 0x7f) {
      const found = face.chain.findIndex((key) => this.handle(key).has(cp));
      idx = found < 0 ? 0 : found;
    }
    if (cp < BMP) {
      face.pick[cp] = idx;
      face.adv[cp] = this.handle(face.chain[idx]!).advance(cp);
    }
    return idx;
  }

  private advance(face: Face, cp: number): number {
    if (cp < BMP) {
      const a = face.adv[cp]!;
      if (a === a) return a;
      this.pickIndex(face, cp);
      return face.adv[cp]!;
    }
    return this.handle(face.chain[this.pickIndex(face, cp)]!).advance(cp);
  }

  /** Width of the text in 1/1000 em. */
  private units(text: string, face: Face): number {
    let w = 0;
    const adv = face.adv;
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        w += this.advance(face, text.codePointAt(i)!);
        i += 1;
        continue;
      }
      const a = adv[c]!;
      w += a === a ? a : this.advance(face, c);
    }
    return w;
  }

  /** The text split into runs of one font each, with their widths. */
  runs(text: string, font: FontName): Run[] {
    const face = this.faces[font];
    const out: Run[] = [];
    let cur = -1;
    let start = 0;
    let units = 0;
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      const astral = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length;
      const cp = astral ? text.codePointAt(i)! : c;
      const idx = cp < BMP && face.pick[cp]! >= 0 ? face.pick[cp]! : this.pickIndex(face, cp);
      if (idx !== cur) {
        if (cur >= 0 && i > start) out.push({ font: this.handle(face.chain[cur]!), text: text.slice(start, i), units });
        cur = idx;
        start = i;
        units = 0;
      }
      units += this.advance(face, cp);
      if (astral) i += 1;
    }
    if (cur >= 0 && text.length > start) out.push({ font: this.handle(face.chain[cur]!), text: text.slice(start), units });
    return out;
  }

  width(text: string, font: FontName, size: number): number {
    return (this.units(text, this.faces[font]) * size) / 1000;
  }

  /** The longest prefix (in whole code points, at least one) that fits in `width`. */
  private fitPrefix(text: string, font: FontName, size: number, width: number): string {
    const face = this.faces[font];
    const limit = (width * 1000) / size;
    let w = 0;
    let end = 0;
    for (let i = 0; i < text.length; ) {
      const c = text.charCodeAt(i);
      const len = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
      const a = this.advance(face, len === 2 ? text.codePointAt(i)! : c);
      if (w + a > limit && end > 0) break;
      w += a;
      i += len;
      end = i;
    }
    return text.slice(0, end);
  }

  /**
   * Characters no font of the chain can draw (emoji, rare scripts) become "[U+1F525]": a reader of
   * evidence learns what was there instead of seeing an empty box, and text extraction keeps it.
   */
  visible(text: string, font: FontName): string {
    if (PLAIN_ASCII.test(text)) return text;
    const face = this.faces[font];
    let out = '';
    let changed = false;
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (cp < 0x7f || cp === 0x0a || this.handle(face.chain[this.pickIndex(face, cp)]!).has(cp)) out += ch;
      else {
        out += `[U+${cp.toString(16).toUpperCase().padStart(4, '0')}]`;
        changed = true;
      }
    }
    return changed ? out : text;
  }

  /** The text cut to fit one line, ending with an ellipsis when shortened. */
  truncate(text: string, font: FontName, size: number, width: number): string {
    const t = this.visible(cleanText(text), font).replace(/\s+/g, ' ');
    if (this.width(t, font, size) <= width) return t;
    const ell = this.width('…', font, size);
    return `${this.fitPrefix(t, font, size, Math.max(0, width - ell)).trimEnd()}…`;
  }

  /**
   * Lines of at most `width` points: breaks at spaces, keeps explicit newlines, and hard-breaks any
   * token wider than a line (a 2,000-character token never runs off the page). Each line records
   * whether it continues the previous one (a wrap rather than a newline in the source).
   */
  wrap(text: string, font: FontName, size: number, width: number): { text: string; continued: boolean }[] {
    const lines: { text: string; continued: boolean }[] = [];
    const spaceW = this.width(' ', font, size);
    for (const para of this.visible(cleanText(text), font).split('\n')) {
      if (para.trim() === '') {
        lines.push({ text: '', continued: false });
        continue;
      }
      // Fast path: the whole paragraph fits (not even tried when it is far too long to fit:
      // no glyph is narrower than a fifth of an em).
      if (para.length * size * 0.2 <= width && this.width(para, font, size) <= width) {
        lines.push({ text: para.trimEnd(), continued: false });
        continue;
      }
      let line = '';
      let lineW = 0;
      let continued = false;
      const push = () => {
        lines.push({ text: line.trimEnd(), continued });
        continued = true;
        line = '';
        lineW = 0;
      };
      // Leading indentation is kept (evidence and JSON bodies use it).
      const indent = /^ +/.exec(para)?.[0] ?? '';
      const words = para.slice(indent.length).split(/ +/);
      line = indent;
      lineW = indent.length * spaceW;
      for (let i = 0; i < words.length; i += 1) {
        let word = words[i]!;
        if (word === '') continue;
        let w = this.width(word, font, size);
        const gap = line.trim() === '' ? 0 : spaceW;
        if (lineW + gap + w <= width) {
          line += (gap ? ' ' : '') + word;
          lineW += gap + w;
          continue;
        }
        if (line.trim() !== '') push();
        while (w > width - lineW) {
          const head = this.fitPrefix(word, font, size, width - lineW);
          line += head;
          push();
          word = word.slice(head.length);
          // Subtract rather than re-measure: a 2,000-character token would otherwise cost O(n²).
          w -= this.width(head, font, size);
        }
        line += word;
        lineW += w;
      }
      if (line.trim() !== '' || !continued) push();
    }
    return lines;
  }
}

/** Shortest decimal form, two decimals at most (a number's own toString never uses an exponent here). */
const num = (v: number): string => String(Math.round(v * 100) / 100 || 0);

const rgbCache = new Map<string, string>();

/** "#rrggbb" -> "r g b" in 0..1. */
export function rgb(hex: string): string {
  let v = rgbCache.get(hex);
  if (v === undefined) {
    const n = Number.parseInt(hex.slice(1), 16);
    v = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => String(Math.round((c / 255) * 1000) / 1000)).join(' ');
    rgbCache.set(hex, v);
  }
  return v;
}

export interface TextItem {
  x: number;
  /** Baseline, from the top of the page. */
  y: number;
  size: number;
  color: string;
  runs: Run[];
}

/**
 * Writes one page's content stream directly: text objects (glyph codes from the typesetter) and
 * simple vector shapes (rectangles, lines) in pdfkit's top-left page coordinates. Shapes that need
 * pdfkit's path parser (arcs, circles) go through pdfkit after `flush()`, in order.
 */
export class PageWriter {
  private inText = false;
  private font = '';
  private size = -1;
  private color = '';
  private readonly fonts: Record<string, unknown>;

  constructor(
    private readonly doc: Doc,
    private readonly pageHeight: number,
    private readonly sink: ByteSink,
  ) {
    this.fonts = (doc as unknown as { page: { fonts: Record<string, unknown> } }).page.fonts;
  }

  text(it: TextItem): void {
    const sink = this.sink;
    if (!this.inText) {
      // Text is set in PDF's own bottom-up space; pdfkit's page space is top-down.
      sink.ascii(`q 1 0 0 -1 0 ${num(this.pageHeight)} cm BT\n`);
      this.inText = true;
      this.font = '';
      this.size = -1;
      this.color = '';
    }
    if (it.color !== this.color) {
      this.color = it.color;
      sink.ascii(`${rgb(it.color)} rg\n`);
    }
    let x = it.x;
    const y = this.pageHeight - it.y;
    for (const run of it.runs) {
      if (run.font.id !== this.font || it.size !== this.size) {
        this.font = run.font.id;
        this.size = it.size;
        if (!this.fonts[this.font]) this.fonts[this.font] = run.font.ref();
        sink.ascii(`/${this.font} ${num(it.size)} Tf\n`);
      }
      sink.ascii('1 0 0 1 ');
      sink.number(x);
      sink.ascii(' ');
      sink.number(y);
      sink.ascii(' Tm (');
      run.font.encodeInto(sink, run.text);
      sink.ascii(') Tj\n');
      x += (run.units * it.size) / 1000;
    }
  }

  private endText(): void {
    if (this.inText) {
      this.sink.ascii('ET Q\n');
      this.inText = false;
    }
  }

  rect(x: number, y: number, w: number, h: number, fill?: string, stroke?: string, lineWidth = 0.5): void {
    this.endText();
    const paint = fill && stroke ? 'B' : fill ? 'f' : 'S';
    this.sink.ascii(`q ${fill ? `${rgb(fill)} rg ` : ''}${stroke ? `${rgb(stroke)} RG ${num(lineWidth)} w ` : ''}${num(x)} ${num(y)} ${num(w)} ${num(h)} re ${paint} Q\n`);
  }

  line(x1: number, y1: number, x2: number, y2: number, color: string, width: number, dash?: [number, number]): void {
    this.endText();
    this.sink.ascii(`q ${rgb(color)} RG ${num(width)} w ${dash ? `[${num(dash[0])} ${num(dash[1])}] 0 d ` : ''}${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l S Q\n`);
  }

  polyline(points: number[], color: string, width: number): void {
    this.endText();
    const sink = this.sink;
    sink.ascii(`q ${rgb(color)} RG ${num(width)} w 1 J 1 j `);
    for (let i = 0; i + 1 < points.length; i += 2) {
      sink.number(points[i]!);
      sink.ascii(' ');
      sink.number(points[i + 1]!);
      sink.ascii(i === 0 ? ' m ' : ' l ');
    }
    sink.ascii('S Q\n');
  }

  /** Hands what was written so far to pdfkit (before any pdfkit drawing call, and at the page end). */
  flush(): void {
    this.endText();
    if (this.sink.length) this.doc.addContent(this.sink.take());
  }

  /**
   * Ends the page's content: compresses it at deflate level 1 (pdfkit would use level 6, which is
   * most of the CPU time of a large report, for ~15 % smaller files). Left to pdfkit if its page
   * object does not look as expected.
   */
  finish(): void {
    this.flush();
    const content = (this.doc as unknown as { page?: { content?: { buffer?: unknown; compress?: unknown; data?: Record<string, unknown> } } }).page?.content;
    if (!content || !Array.isArray(content.buffer) || typeof content.compress !== 'boolean' || !content.data || content.data.Filter !== 'FlateDecode') return;
    const raw = Buffer.concat(content.buffer as Uint8Array[]);
    content.buffer = [zlib.deflateSync(raw, { level: 1 })];
    content.compress = false;
  }
}
