// A client that hangs up while its request body is still arriving: the body reader fails with Node's
// "aborted" (ECONNRESET) error. That is the client's doing, not a server fault: no 500 with a stack,
// and nothing to send, since nobody is listening.

const ABORT_MESSAGES = new Set(['aborted', 'request aborted']);
const ABORT_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Whether `err` is the request body failing because the client went away. Node's own body-reader
 * error ("aborted" with ECONNRESET, or "request aborted" with ECONNABORTED) counts by itself; a bare
 * reset or AbortError only when the request's signal says the client is gone, so a reset from some
 * upstream the handler called is still a 500.
 */
export function isClientAbort(err: unknown, signal?: AbortSignal): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    const resetCode = typeof code === 'string' && ABORT_CODES.has(code);
    if (ABORT_MESSAGES.has(current.message) && (resetCode || signal?.aborted)) return true;
    if (signal?.aborted && (resetCode || current.name === 'AbortError')) return true;
    current = current.cause;
  }
  return false;
}
