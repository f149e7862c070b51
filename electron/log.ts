// A small structured logger. Secrets never reach the log: any field whose name looks like a
// password, token, key or credential is replaced before the line is written.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_FIELD = /pass(word)?|secret|token|authori[sz]ation|cookie|api[_-]?key|key[_-]?[12]|credential|hash/i;
export const REDACTED = '[redacted]';

function redact(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.test(k) ? REDACTED : redact(v, depth + 1);
  return out;
}

function render(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  if (value instanceof Error) return JSON.stringify(value.stack ?? value.message);
  return JSON.stringify(value);
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; default stderr. */
  sink?: (line: string) => void;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const min = ORDER[options.level ?? 'info'];
  const sink = options.sink ?? ((line: string) => process.stderr.write(`${line}\n`));
  const write = (level: LogLevel, message: string, fields?: LogFields): void => {
    if (ORDER[level] < min) return;
    let line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}`;
    if (fields) {
      const safe = redact(fields) as Record<string, unknown>;
      for (const [k, v] of Object.entries(safe)) if (v !== undefined) line += ` ${k}=${render(v)}`;
    }
    sink(line);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

/** A logger that keeps its lines in memory, for tests that assert on what was (not) logged. */
export function createMemoryLogger(level: LogLevel = 'debug'): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger({ level, sink: (l) => lines.push(l) }), { lines });
}
