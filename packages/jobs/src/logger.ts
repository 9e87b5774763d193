type LogLevel = 'info' | 'warn' | 'error';

/** The minimal logger the worker, its jobs and the API share. Fields first, message second. */
export type Logger = {
  info(fields: object, msg?: string): void;
  warn(fields: object, msg?: string): void;
  error(fields: object, msg?: string): void;
};

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

/** Writes one JSON object per line: `{ level, time, msg, ...fields }`. Never throws. */
export function createJsonLogger(stream: LogStream = process.stdout): Logger {
  const write = (level: LogLevel, fields: object, msg?: string): void => {
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
      line = JSON.stringify(entry, replaceValue);
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
