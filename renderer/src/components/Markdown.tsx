// Markdown in a finding's fix (issue 31 item 2): the checks write code spans (`Vary: Origin`), lists and
// emphasis in their fix texts. react-markdown builds React elements, never HTML: raw HTML in the text
// shows as text. Only a small set of elements is kept (no images, headings are bold lines), and a link
// opens outside the app, like every external link, and only when it is http(s).

import type { ReactElement, ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';

const ALLOWED = ['p', 'br', 'strong', 'em', 'code', 'pre', 'ul', 'ol', 'li', 'a', 'blockquote', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'img'];

/** An absolute http(s) address, else null. */
function webAddress(href: string | undefined): string | null {
  if (!href) return null;
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

const heading = ({ children }: { children?: ReactNode }) => (
  <p>
    <strong>{children}</strong>
  </p>
);

const COMPONENTS: Components = {
  h1: heading,
  h2: heading,
  h3: heading,
  h4: heading,
  h5: heading,
  h6: heading,
  // An image would be fetched from wherever the text points: its description stands in for it.
  img: ({ alt }) => <>{alt ?? ''}</>,
  a: ({ href, children }) => {
    const url = webAddress(href);
    return url ? (
      <a href={url} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    ) : (
      <>{children}</>
    );
  },
};

export function Markdown({ text, className, testId }: { text: string; className?: string; testId?: string }): ReactElement {
  return (
    <div className={['markdown', className].filter(Boolean).join(' ')} data-testid={testId}>
      <ReactMarkdown allowedElements={ALLOWED} unwrapDisallowed components={COMPONENTS}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
