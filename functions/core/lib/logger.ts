/** Structured JSON logs, one line per entry, carrying the correlation id. Never pass secrets or tokens. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

const REDACTED = /authorization|token|secret|password|x-key|x-kiosk-key|apikey|api-key|cookie/i;

/** Drops values under keys that could hold credentials, however deep. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = REDACTED.test(k) ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}

export function createLogger(
  fields: Record<string, unknown> = {},
  level: LogLevel = (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info',
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const emit = (lvl: LogLevel, message: string, data?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const entry = {
      level: lvl,
      time: new Date().toISOString(),
      message,
      ...fields,
      ...(data ? (redact(data) as object) : {}),
    };
    write(JSON.stringify(entry));
  };
  return {
    debug: (m, d) => emit('debug', m, d),
    info: (m, d) => emit('info', m, d),
    warn: (m, d) => emit('warn', m, d),
    error: (m, d) => emit('error', m, d),
    child: (more) => createLogger({ ...fields, ...more }, level, write),
  };
}
