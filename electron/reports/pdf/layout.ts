// Page layout for the PDF reports: content is laid out first into pages of drawing operations
// (so the contents page and "Page N of M" know every page number), then written to pdfkit.
// Nothing is ever placed past the bottom margin: paragraphs, tables and evidence continue on the
// next page, and long unbroken strings are hard-wrapped by the typesetter.

import { markdownLines, type Span } from '../markdown';
import { cleanText, type Typesetter, type FontName, type Run, type TextItem } from './typeset';

export const PAGE = { width: 595.28, height: 841.89, left: 54, right: 54, top: 72, bottom: 64 } as const;
export const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;

export const THEME = {
  ink: '#1f2933',
  muted: '#52606d',
  faint: '#9aa5b1',
  rule: '#d9e2ec',
  accent: '#1d4ed8',
  accentSoft: '#e8eefc',
  codeBg: '#f5f7fa',
  codeBorder: '#dde3ea',
  headerFill: '#eef2f7',
  zebra: '#fafbfc',
  white: '#ffffff',
  /** A warning box (a scan's problems), in the app's warning colours. */
  warning: '#8a4b00',
  warningBg: '#fff4e0',
  warningBorder: '#f0c88a',
} as const;

export interface TextStyle {
  font: FontName;
  size: number;
  color?: string;
  /** Line height as a multiple of the size (default 1.4). */
  leading?: number;
}

export const STYLES = {
  body: { font: 'sans', size: 9.5, color: THEME.ink },
  small: { font: 'sans', size: 8, color: THEME.muted },
  label: { font: 'bold', size: 8, color: THEME.muted },
  strong: { font: 'bold', size: 9.5, color: THEME.ink },
  h1: { font: 'bold', size: 18, color: THEME.ink, leading: 1.25 },
  h2: { font: 'bold', size: 13, color: THEME.ink, leading: 1.3 },
  h3: { font: 'bold', size: 10.5, color: THEME.ink, leading: 1.35 },
  code: { font: 'mono', size: 7.5, color: THEME.ink, leading: 1.3 },
} satisfies Record<string, TextStyle>;

export type Op =
  | ({ k: 'text' } & TextItem)
  | { k: 'rect'; x: number; y: number; w: number; h: number; fill?: string; stroke?: string; lineWidth?: number; radius?: number }
  | { k: 'line'; x1: number; y1: number; x2: number; y2: number; color: string; width: number; dash?: [number, number] }
  | { k: 'path'; d: string; fill?: string; stroke?: string; width?: number }
  /** A stroked open polyline (drawn without pdfkit's SVG path parser: cheap enough for every wrapped line). */
  | { k: 'polyline'; points: number[]; color: string; width: number }
  | { k: 'circle'; x: number; y: number; r: number; fill?: string; stroke?: string; width?: number }
  | { k: 'link'; x: number; y: number; w: number; h: number; url: string }
  | { k: 'goto'; x: number; y: number; w: number; h: number; dest: string }
  | { k: 'dest'; name: string; y: number }
  | { k: 'outline'; title: string; level: number };

export interface PageModel {
  ops: Op[];
}

export interface TocEntry {
  title: string;
  level: number;
  /** Index of the page in its flow. */
  page: number;
  dest: string;
}

export interface Column {
  header: string;
  width: number;
  font?: FontName;
  align?: 'left' | 'right';
}

export interface Cell {
  text: string;
  font?: FontName;
  color?: string;
  /** A small coloured dot before the text (severity, status). */
  dot?: string;
  /** Paragraphs with their own face and colour, drawn one under the other instead of `text`. */
  parts?: { text: string; font?: FontName; color?: string }[];
}

/** Characters that can start Markdown the reports draw (see markdown.ts). */
const MARKUP = /[`*[]|^\s*-\s/m;

const leading = (s: TextStyle): number => s.size * (s.leading ?? 1.4);
/** Baseline of a line box whose top is `top`. */
const baseline = (top: number, s: TextStyle): number => top + (leading(s) + s.size * 0.72) / 2;

export class Flow {
  readonly pages: PageModel[] = [];
  readonly toc: TocEntry[] = [];
  y: number = PAGE.top;
  private dests = 0;
  /** While a panel is open: closes its box on the page that ends (at `end`) and opens one on the next. */
  private panelBreak: ((end: number) => void) | null = null;

  constructor(
    readonly ts: Typesetter,
    private readonly onNewPage: (flow: Flow) => void = () => undefined,
    /** Keeps destination names unique across the flows of one document. */
    private readonly destPrefix = 'd',
  ) {}

  get page(): PageModel {
    if (!this.pages.length) this.newPage();
    return this.pages[this.pages.length - 1]!;
  }

  get bottom(): number {
    return PAGE.height - PAGE.bottom;
  }

  room(): number {
    return this.bottom - this.y;
  }

  newPage(): void {
    const end = this.y;
    this.pages.push({ ops: [] });
    this.y = PAGE.top;
    this.onNewPage(this);
    this.panelBreak?.(end);
  }

  /** Starts a new page unless `h` points still fit on this one; true when it broke. */
  ensure(h: number): boolean {
    if (!this.pages.length) this.newPage();
    if (this.y + h <= this.bottom) return false;
    this.newPage();
    return true;
  }

  space(h: number): void {
    this.y = Math.min(this.y + h, this.bottom);
  }

  push(op: Op): void {
    this.page.ops.push(op);
  }

  runs(text: string, font: FontName): Run[] {
    return this.ts.runs(text, font);
  }

  /** One line of text whose line box starts at `top`; no wrapping (callers truncate). */
  textAt(text: string, x: number, top: number, style: TextStyle, opts: { align?: 'left' | 'center' | 'right'; width?: number } = {}): number {
    const runs = this.runs(text, style.font);
    let units = 0;
    for (const r of runs) units += r.units;
    const w = (units * style.size) / 1000;
    let left = x;
    if (opts.align === 'center') left = x + ((opts.width ?? 0) - w) / 2;
    else if (opts.align === 'right') left = x + (opts.width ?? 0) - w;
    if (text !== '') this.push({ k: 'text', x: left, y: baseline(top, style), size: style.size, color: style.color ?? THEME.ink, runs });
    return w;
  }

  /** A wrapped paragraph; short ones (up to keepLines) are never split across pages. */
  paragraph(text: string, style: TextStyle = STYLES.body, opts: { x?: number; width?: number; gapAfter?: number; keepLines?: number; link?: string } = {}): void {
    const x = opts.x ?? PAGE.left;
    const width = opts.width ?? CONTENT_WIDTH - (x - PAGE.left);
    const lines = this.ts.wrap(text, style.font, style.size, width);
    const lh = leading(style);
    const keep = opts.keepLines ?? 8;
    if (lines.length <= keep) this.ensure(lines.length * lh);
    else this.ensure(Math.min(3, lines.length) * lh);
    for (const line of lines) {
      this.ensure(lh);
      if (line.text) {
        const w = this.textAt(line.text, x, this.y, style);
        if (opts.link) this.push({ k: 'link', x, y: this.y, w, h: lh, url: opts.link });
      }
      this.y += lh;
    }
    this.space(opts.gapAfter ?? lh * 0.5);
  }

  /**
   * A paragraph of check text with its Markdown drawn, not shown: `code` in the monospace face on a
   * light tint, **bold** in the bold face, links in the accent colour (clickable), "- " lines as
   * bullets with a hanging indent. Wraps at spaces like `paragraph`; a word wider than the line is
   * hard-broken. Backticks and asterisks of the markup never reach the page.
   */
  rich(text: string, style: TextStyle = STYLES.body, opts: { x?: number; width?: number; gapAfter?: number; prefix?: string } = {}): void {
    // Most texts have no markup: they take the plain paragraph's faster path.
    if (!opts.prefix && !MARKUP.test(text || '—')) return this.paragraph(text || '—', style, { x: opts.x, width: opts.width, gapAfter: opts.gapAfter });
    const x0 = opts.x ?? PAGE.left;
    const width = opts.width ?? CONTENT_WIDTH - (x0 - PAGE.left);
    const lh = leading(style);
    const codeSize = style.size * 0.92;
    const lines = markdownLines(text || '—');
    if (opts.prefix) lines[0] = { ...lines[0]!, spans: [{ text: opts.prefix, bold: true }, ...lines[0]!.spans] };
    /** `span`: which span of the line it came from (a code span's tint runs across its spaces). */
    type Piece = { text: string; font: FontName; size: number; code: boolean; href?: string; w: number; span: number };
    const pieceOf = (s: Span, t: string, span: number): Piece => {
      const font: FontName = s.code ? 'mono' : s.bold ? 'bold' : style.font;
      const size = s.code ? codeSize : style.size;
      const shown = this.ts.visible(cleanText(t), font);
      return { text: shown, font, size, code: !!s.code, href: s.href, w: this.ts.width(shown, font, size), span };
    };
    const spaceW = this.ts.width(' ', style.font, style.size);
    const laid: { pieces: { p: Piece; x: number }[]; indent: number; bullet: boolean }[] = [];
    for (const line of lines) {
      const bulletW = line.item ? this.ts.width('• ', style.font, style.size) : 0;
      // Words: runs of pieces with no space between them ("`nosniff`," is one word of two pieces).
      const words: Piece[][] = [];
      let glued = false;
      for (const [si, span] of line.spans.entries()) {
        const parts = span.text.replace(/\s+/g, ' ').split(' ');
        parts.forEach((part, i) => {
          if (i > 0) glued = false;
          if (!part) return;
          const piece = pieceOf(span, part, si);
          if (glued && words.length) words[words.length - 1]!.push(piece);
          else words.push([piece]);
          glued = true;
        });
        if (/\s$/.test(span.text)) glued = false;
      }
      let cur: { pieces: { p: Piece; x: number }[]; indent: number; bullet: boolean } = { pieces: [], indent: bulletW, bullet: line.item };
      let cx = bulletW;
      const flush = () => {
        laid.push(cur);
        cur = { pieces: [], indent: bulletW, bullet: false };
        cx = bulletW;
      };
      for (const word of words) {
        const w = word.reduce((n, p) => n + p.w, 0);
        const gap = cur.pieces.length ? spaceW : 0;
        if (cx + gap + w > width && cur.pieces.length) flush();
        else cx += gap;
        for (const p of word) {
          if (cx + p.w <= width || cx === bulletW) {
            // A piece wider than a whole line is hard-broken at the typesetter's wrap points.
            const chunks = p.w > width - bulletW ? this.ts.wrap(p.text, p.font, p.size, width - bulletW).map((l) => l.text) : [p.text];
            chunks.forEach((c, ci) => {
              if (ci > 0) flush();
              const piece = ci === 0 && chunks.length === 1 ? p : { ...p, text: c, w: this.ts.width(c, p.font, p.size) };
              cur.pieces.push({ p: piece, x: cx });
              cx += piece.w;
            });
          } else {
            flush();
            cur.pieces.push({ p, x: cx });
            cx += p.w;
          }
        }
      }
      flush();
    }
    if (laid.length <= 8) this.ensure(laid.length * lh);
    for (const line of laid) {
      this.ensure(lh);
      const base = baseline(this.y, style);
      if (line.bullet) this.textAt('•', x0, this.y, style);
      // One tint per code span on the line, drawn before the text.
      let tint: (Op & { k: 'rect' }) | null = null;
      let tintSpan = -1;
      for (const { p, x } of line.pieces) {
        if (!p.code) {
          tint = null;
          continue;
        }
        if (tint && tintSpan === p.span) tint.w = x0 + x + p.w + 1 - tint.x;
        else {
          tint = { k: 'rect', x: x0 + x - 1, y: this.y + (lh - p.size * 1.25) / 2, w: p.w + 2, h: p.size * 1.25, fill: THEME.codeBg };
          tintSpan = p.span;
          this.push(tint);
        }
      }
      for (const { p, x } of line.pieces) {
        this.push({ k: 'text', x: x0 + x, y: base, size: p.size, color: p.href ? THEME.accent : (style.color ?? THEME.ink), runs: this.runs(p.text, p.font) });
        if (p.href) this.push({ k: 'link', x: x0 + x, y: this.y, w: p.w, h: lh, url: p.href });
      }
      this.y += lh;
    }
    this.space(opts.gapAfter ?? lh * 0.5);
  }

  /** Label and value on one line, the value wrapped in its column. */
  labelled(label: string, value: string, opts: { labelWidth?: number; valueStyle?: TextStyle } = {}): void {
    const lw = opts.labelWidth ?? 110;
    const vs = opts.valueStyle ?? STYLES.body;
    const lines = this.ts.wrap(value || '—', vs.font, vs.size, CONTENT_WIDTH - lw);
    const lh = leading(vs);
    this.ensure(Math.min(lines.length, 4) * lh);
    this.textAt(label, PAGE.left, this.y, { ...STYLES.label, size: vs.size - 1 });
    for (const line of lines) {
      if (this.ensure(lh)) this.textAt(`${label} (continued)`, PAGE.left, this.y, { ...STYLES.label, size: vs.size - 1 });
      this.textAt(line.text, PAGE.left + lw, this.y, vs);
      this.y += lh;
    }
  }

  /** A heading, kept with what follows; listed in the contents and the PDF outline when asked. */
  heading(text: string, style: TextStyle, opts: { toc?: number; outline?: boolean; keepWith?: number; rule?: boolean } = {}): string {
    const lines = this.ts.wrap(text, style.font, style.size, CONTENT_WIDTH);
    const lh = leading(style);
    this.ensure(lines.length * lh + (opts.keepWith ?? 48));
    // Only headings listed in the contents need a named destination (the link target).
    const dest = opts.toc !== undefined ? `${this.destPrefix}${(this.dests += 1)}` : '';
    if (opts.toc !== undefined) {
      this.push({ k: 'dest', name: dest, y: this.y });
      if (opts.outline !== false) this.push({ k: 'outline', title: text, level: opts.toc });
      this.toc.push({ title: text, level: opts.toc, page: this.pages.length - 1, dest });
    }
    for (const line of lines) {
      // A heading taller than a page (a pathological finding name) still never runs off it.
      this.ensure(lh);
      this.textAt(line.text, PAGE.left, this.y, style);
      this.y += lh;
    }
    if (opts.rule) {
      this.push({ k: 'line', x1: PAGE.left, y1: this.y + 1, x2: PAGE.left + CONTENT_WIDTH, y2: this.y + 1, color: THEME.rule, width: 0.8 });
      this.y += 6;
    } else this.y += lh * 0.2;
    return dest;
  }

  /**
   * What `body` lays out, on a tinted box with a thick left edge (a warning box); `body` gets the inset
   * left and width to lay out in. A box that runs onto another page is drawn on each page it spans.
   */
  panel(colors: { fill: string; stroke: string }, body: (x: number, width: number) => void, opts: { keepWith?: number } = {}): void {
    const pad = 8;
    const edge = 3;
    this.ensure(pad * 2 + (opts.keepWith ?? 48));
    let boxes: (Op & { k: 'rect' })[] = [];
    let top = this.y;
    const open = (): void => {
      top = this.y;
      boxes = [
        { k: 'rect', x: PAGE.left, y: top, w: CONTENT_WIDTH, h: 0, fill: colors.fill, stroke: colors.stroke, lineWidth: 0.6 },
        { k: 'rect', x: PAGE.left, y: top, w: edge, h: 0, fill: colors.stroke },
      ];
      for (const b of boxes) this.push(b);
      this.y += pad;
    };
    const close = (end: number): void => {
      for (const b of boxes) b.h = end - top;
    };
    const outer = this.panelBreak;
    this.panelBreak = (end) => {
      close(Math.min(end + pad / 2, this.bottom + pad));
      open();
    };
    try {
      open();
      body(PAGE.left + edge + pad + 2, CONTENT_WIDTH - edge - pad * 2 - 2);
    } finally {
      this.panelBreak = outer;
    }
    // The last paragraph's gap below stands in for the bottom padding.
    this.y += pad / 2;
    close(this.y);
    this.space(8);
  }

  /** Monospace block on a tinted background, wrapped; wrapped lines get a mark in the gutter. */
  code(text: string, opts: { style?: TextStyle; x?: number } = {}): void {
    const style = opts.style ?? STYLES.code;
    const x = opts.x ?? PAGE.left;
    const width = CONTENT_WIDTH - (x - PAGE.left);
    const pad = 5;
    const gutter = 9;
    const lh = leading(style);
    const lines = this.ts.wrap(text, style.font, style.size, width - pad * 2 - gutter);
    while (lines.length > 1 && lines[lines.length - 1]!.text === '') lines.pop();
    this.ensure(pad * 2 + lh * Math.min(lines.length, 4));
    let i = 0;
    while (i < lines.length) {
      const box: Op & { k: 'rect' } = { k: 'rect', x, y: this.y, w: width, h: 0, fill: THEME.codeBg, stroke: THEME.codeBorder, lineWidth: 0.5 };
      this.push(box);
      const top = this.y;
      this.y += pad;
      while (i < lines.length && this.y + lh + pad <= this.bottom) {
        const line = lines[i]!;
        if (line.continued) {
          const my = this.y + lh * 0.25;
          this.push({ k: 'polyline', points: [x + 4, my, x + 4, my + lh * 0.45, x + 7.5, my + lh * 0.45], color: THEME.faint, width: 0.6 });
        }
        if (line.text) this.textAt(line.text, x + pad + gutter - 4, this.y, style);
        this.y += lh;
        i += 1;
      }
      this.y += pad;
      box.h = this.y - top;
      if (i < lines.length) this.newPage();
    }
    this.space(8);
  }

  /** A table with a shaded header row repeated on every page it spans. */
  table(columns: Column[], rows: (string | Cell)[][], opts: { size?: number; zebra?: boolean; headerStyle?: TextStyle } = {}): void {
    const size = opts.size ?? 8.5;
    const pad = 4;
    const cellStyle = (c: Cell, col: Column): TextStyle => ({ font: c.font ?? col.font ?? 'sans', size, color: c.color ?? THEME.ink, leading: 1.3 });
    const head: TextStyle = opts.headerStyle ?? { font: 'bold', size, color: THEME.muted, leading: 1.3 };
    const lh = leading(head);
    const totalW = columns.reduce((s, c) => s + c.width, 0);
    const drawHeader = () => {
      const hh = lh + pad * 2;
      this.push({ k: 'rect', x: PAGE.left, y: this.y, w: totalW, h: hh, fill: THEME.headerFill });
      let x = PAGE.left;
      for (const col of columns) {
        this.textAt(this.ts.truncate(col.header, head.font, head.size, col.width - pad * 2), x + pad, this.y + pad, head, { align: col.align === 'right' ? 'right' : 'left', width: col.width - pad * 2 });
        x += col.width;
      }
      this.y += hh;
    };
    this.ensure(lh * 3 + pad * 4);
    drawHeader();
    rows.forEach((row, r) => {
      const cells = columns.map((col, c) => {
        const raw = row[c] ?? '';
        const cell: Cell = typeof raw === 'string' ? { text: raw } : raw;
        const style = cellStyle(cell, col);
        const indent = cell.dot ? 9 : 0;
        const wrap = (text: string, st: TextStyle) => this.ts.wrap(text, st.font, st.size, col.width - pad * 2 - indent).map((l) => ({ text: l.text, style: st }));
        const lines = cell.parts
          ? cell.parts.flatMap((p) => wrap(p.text, { ...style, font: p.font ?? style.font, color: p.color ?? style.color }))
          : wrap(cell.text, style);
        return { cell, indent, lines };
      });
      const rowLines = Math.max(1, ...cells.map((c) => c.lines.length));
      const fullH = rowLines * lh + pad * 2;
      if (this.y + fullH > this.bottom && fullH <= this.bottom - PAGE.top - lh - pad * 2) {
        this.newPage();
        drawHeader();
      }
      let from = 0;
      while (from < rowLines) {
        if (this.y + lh + pad * 2 > this.bottom) {
          this.newPage();
          drawHeader();
        }
        const fit = Math.max(1, Math.min(rowLines - from, Math.floor((this.bottom - this.y - pad * 2) / lh)));
        const h = fit * lh + pad * 2;
        if (opts.zebra !== false && r % 2 === 1) this.push({ k: 'rect', x: PAGE.left, y: this.y, w: totalW, h, fill: THEME.zebra });
        let x = PAGE.left;
        cells.forEach((c, ci) => {
          const col = columns[ci]!;
          if (c.cell.dot && from === 0) this.push({ k: 'circle', x: x + pad + 3, y: this.y + pad + lh / 2, r: 2.6, fill: c.cell.dot });
          c.lines.slice(from, from + fit).forEach((line, li) => {
            this.textAt(line.text, x + pad + c.indent, this.y + pad + li * lh, line.style, { align: col.align === 'right' ? 'right' : 'left', width: col.width - pad * 2 - c.indent });
          });
          x += col.width;
        });
        this.y += h;
        this.push({ k: 'line', x1: PAGE.left, y1: this.y, x2: PAGE.left + totalW, y2: this.y, color: THEME.rule, width: 0.5 });
        from += fit;
      }
    });
    this.space(10);
  }

  /**
   * Label/value pairs in a grid of `cols` columns (label left, value right), values wrapped in
   * their cell; a pair with `wide` takes a whole row.
   */
  grid(pairs: { label: string; value: string; color?: string; font?: FontName; wide?: boolean }[], opts: { cols?: number; labelWidth?: number; size?: number } = {}): void {
    const cols = opts.cols ?? 2;
    const lw = opts.labelWidth ?? 64;
    const size = opts.size ?? 8.5;
    const gap = 12;
    const colW = (CONTENT_WIDTH - gap * (cols - 1)) / cols;
    const lh = size * 1.35;
    const rows: (typeof pairs)[] = [];
    let row: typeof pairs = [];
    for (const p of pairs) {
      if (p.wide) {
        if (row.length) rows.push(row);
        rows.push([p]);
        row = [];
        continue;
      }
      row.push(p);
      if (row.length === cols) {
        rows.push(row);
        row = [];
      }
    }
    if (row.length) rows.push(row);
    for (const r of rows) {
      const cells = r.map((p) => {
        const w = (p.wide ? CONTENT_WIDTH : colW) - lw;
        const style: TextStyle = { font: p.font ?? 'sans', size, color: p.color ?? THEME.ink, leading: 1.35 };
        return { p, style, lines: this.ts.wrap(p.value || '—', style.font, size, w).map((l) => l.text) };
      });
      const n = Math.max(...cells.map((c) => c.lines.length));
      let from = 0;
      while (from < n) {
        this.ensure(lh);
        const fit = Math.max(1, Math.min(n - from, Math.floor((this.bottom - this.y) / lh)));
        cells.forEach((c, i) => {
          const x = PAGE.left + i * (colW + gap);
          if (from === 0) this.textAt(c.p.label, x, this.y, { font: 'bold', size: size - 0.5, color: THEME.muted, leading: (lh / (size - 0.5)) });
          c.lines.slice(from, from + fit).forEach((t, li) => this.textAt(t, x + lw, this.y + li * lh, c.style));
        });
        this.y += fit * lh;
        from += fit;
      }
      this.y += 1.5;
    }
  }

  /** Reserves `h` points (on a new page if needed) and returns the top of the reserved area. */
  reserve(h: number): number {
    this.ensure(h);
    const top = this.y;
    this.y += h;
    return top;
  }
}
