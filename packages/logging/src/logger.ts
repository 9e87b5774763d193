import type { Logger } from '@travelops/domain/shared';

export const LOG_LEVELS = ['info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  /** The least severe level written (`LOG_LEVEL`); default `info`. */
  level?: LogLevel;
  /** `json` (one object per line) or `pretty` (for people); default: pretty on a terminal. */
  format?: LogFormat;
}

export interface LogStream {
  write(line: string): unknown;
}

// Defence in depth: credentials must never reach a log line, even when a caller passes them.
const REDACTED_KEYS = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'secret',
  'token',
  'x-csrf-token',
  'csrftoken',
]);

function replaceValue(key: string, value: unknown): unknown {
  if (key !== '' && REDACTED_KEYS.has(key.toLowerCase())) return '[REDACTED]';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) {
    // Own enumerable properties (a pg error's `code`, say) are kept; name, message and stack are not enumerable.
    return {
      ...value,
      name: value.name,
      message: value.message,
      stack: value.stack,
      ...(value.cause === undefined ? {} : { cause: value.cause }),
    };
  }
  return value;
}

const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2 };

/** `12:04:05.120 INFO  msg key=value ...`: the same entry as the JSON line, for a terminal. */
function prettyLine(entry: Record<string, unknown>): string {
  const { level, time, msg, ...fields } = entry;
  const rest = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(
      ([key, value]) =>
        `${key}=${typeof value === 'string' && !/\s|"/.test(value) ? value : JSON.stringify(value)}`,
    );
  const clock = String(time).slice(11, 23);
  return [clock, String(level).toUpperCase().padEnd(5), ...(msg === undefined ? [] : [msg]), ...rest].join(
    ' ',
  );
}

/**
 * Writes one JSON object per line: `{ level, time, msg, ...fields }` (or, with `format:
 * 'pretty'`, one readable line with the same content). Entries below `level` are dropped.
 * Never throws.
 */
export function createJsonLogger(stream: LogStream = process.stdout, options: LoggerOptions = {}): Logger {
  const minimum = RANK[options.level ?? 'info'];
  const pretty = (options.format ?? 'json') === 'pretty';
  const write = (level: LogLevel, fields: object, msg?: string): void => {
    if (RANK[level] < minimum) return;
    const time = new Date().toISOString();
    // Fields cannot overwrite level or time; an explicit message wins over a `msg` field.
    const entry = Object.assign(
      { level, time, msg },
      fields,
      { level, time },
      msg === undefined ? {} : { msg },
    );
    let line: string;
    try {
      // Through JSON either way, so redaction and error handling are the same in both formats.
      line = JSON.stringify(entry, replaceValue);
      if (pretty) line = prettyLine(JSON.parse(line) as Record<string, unknown>);
    } catch {
      line = JSON.stringify({ level, time, msg, logError: 'fields could not be serialized' });
    }
    stream.write(`${line}\n`);
  };
  return {
    info: (fields, msg) => write('info', fields, msg),
    warn: (fields, msg) => write('warn', fields, msg),
    error: (fields, msg) => write('error', fields, msg),
  };
}

/**
 * A stream that gathers the lines written during one turn of the event loop and hands them
 * to `target` in one write (one system call for a burst of request lines, not one each).
 * Lines still pending when the process exits are written then (stdout and stderr to a file,
 * pipe or terminal write synchronously there).
 */
export function coalescedStream(target: LogStream = process.stdout): LogStream {
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    target.write(chunk);
  };
  process.on('exit', flush);
  return {
    write(line: string) {
      if (pending === '') setImmediate(flush);
      pending += line;
      return true;
    },
  };
}

/** The format when `LOG_FORMAT` is unset: pretty for a person at a terminal, JSON for machines. */
export const defaultLogFormat = (stream: { isTTY?: boolean } = process.stdout): LogFormat =>
  stream.isTTY ? 'pretty' : 'json';
