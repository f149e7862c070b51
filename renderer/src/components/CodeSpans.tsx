// A finding's description (issue 31 item 2): prose written by a check around what the scanned API
// answered (an error message, a field name, a path). Its code spans (`Origin: null`) are shown as code;
// nothing else is read as Markdown, so a quoted answer keeps its asterisks, underscores, backslashes and
// brackets as they were, and HTML in it is text like everything React renders.

import type { ReactElement } from 'react';

/** The text in parts: plain, or the inside of a `code span` (one backtick each side, on one line). */
export function codeSpanParts(text: string): { code: boolean; text: string }[] {
  const parts: { code: boolean; text: string }[] = [];
  const re = /`([^`\n]+)`/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) parts.push({ code: false, text: text.slice(at, m.index) });
    parts.push({ code: true, text: m[1]! });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ code: false, text: text.slice(at) });
  return parts;
}

export function CodeSpans({ text, testId }: { text: string; testId?: string }): ReactElement {
  return (
    <p data-testid={testId}>
      {codeSpanParts(text).map((p, i) => (p.code ? <code key={i}>{p.text}</code> : p.text))}
    </p>
  );
}
