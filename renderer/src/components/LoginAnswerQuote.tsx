// What a failed login got back (issue 31): the request, its status and a bounded excerpt of the body
// the server already redacted, quoted as it came; and messages whose `pointers` are set in code.

import type { ReactElement } from 'react';
import type { LoginAnswer } from '../../../shared/contract';
import { IDENTITY_MESSAGES } from '../../../shared/messages';

/** A message with `backticked` parts (JSON pointers, fields) shown as code. */
export function CodeText({ text }: { text: string }): ReactElement {
  const parts = text.split('`');
  // An odd count of backticks leaves the last one as text.
  if (parts.length % 2 === 0) return <>{text}</>;
  return <>{parts.map((p, n) => (n % 2 ? <code key={n}>{p}</code> : p))}</>;
}

/**
 * A message that quotes the answer inline ("... answered 401 {"error": ...}."), cut after the status
 * when the answer is quoted below it: the excerpt once, in its block.
 */
export function withoutInlineAnswer(message: string, answer: LoginAnswer | null | undefined): string {
  if (!answer?.excerpt || answer.status === null) return message;
  const at = message.indexOf(`answered ${answer.status} `);
  if (at < 0) return message;
  const rest = message.slice(at + `answered ${answer.status} `.length);
  return rest.startsWith(answer.excerpt.slice(0, 20)) ? `${message.slice(0, at)}answered ${answer.status}.` : message;
}

export function LoginAnswerQuote({ answer }: { answer: LoginAnswer }): ReactElement {
  return (
    <figure className="login-answer" data-testid="login-answer">
      <figcaption className="small" data-testid="login-answer-head">
        {IDENTITY_MESSAGES.answerQuote(answer.request, answer.status)}
        {answer.excerpt ? ':' : '.'}
      </figcaption>
      {answer.excerpt && (
        <blockquote className="mono small" data-testid="login-answer-excerpt">
          {answer.excerpt}
        </blockquote>
      )}
    </figure>
  );
}
