// The little Markdown that check texts use (`code` spans, **bold**, [links](https://…) and "- " list
// lines), parsed into spans every report format draws its own way: the PDFs in a monospace or bold
// face, the HTML export as <code>, <strong> and <a>. Nothing else is interpreted, and no text is
// ever passed through as markup: the HTML renderer escapes each span's text itself.

import { safeUrl } from './format';

export interface Span {
  text: string;
  code?: boolean;
  bold?: boolean;
  /** An http(s) URL (anything else stays plain text). */
  href?: string;
}

/** One line of a text: its spans, and whether it is a "- " / "* " list item. */
export interface MdLine {
  item: boolean;
  spans: Span[];
}

const INLINE = /`([^`\n]+)`|\*\*([^*\n]+?)\*\*|\[([^\]\n]+)\]\(([^)\s]+)\)/g;

/** The spans of one line: code, bold and link spans; everything else is plain text. */
export function inlineSpans(text: string): Span[] {
  const out: Span[] = [];
  let last = 0;
  const plain = (s: string) => {
    if (!s) return;
    const prev = out[out.length - 1];
    if (prev && !prev.code && !prev.bold && !prev.href) prev.text += s;
    else out.push({ text: s });
  };
  for (const m of text.matchAll(INLINE)) {
    plain(text.slice(last, m.index));
    if (m[1] !== undefined) out.push({ text: m[1], code: true });
    else if (m[2] !== undefined) out.push({ text: m[2], bold: true });
    else {
      const href = safeUrl(m[4]!);
      if (href) out.push({ text: m[3]!, href });
      else plain(m[0]);
    }
    last = m.index + m[0].length;
  }
  plain(text.slice(last));
  return out;
}

/** The text's lines with their spans; "- " and "* " lines are list items. */
export function markdownLines(text: string): MdLine[] {
  return text.split(/\r?\n/).map((line) => {
    const m = /^\s*[-*]\s+(.*)$/.exec(line);
    return m ? { item: true, spans: inlineSpans(m[1]!) } : { item: false, spans: inlineSpans(line) };
  });
}

/** The text as a reader sees it, without the markup (for lengths, tests and plain-text outputs). */
export function markdownPlain(text: string): string {
  return markdownLines(text)
    .map((l) => `${l.item ? '• ' : ''}${l.spans.map((s) => s.text).join('')}`)
    .join('\n');
}
