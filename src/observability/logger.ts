/**
 * The pino logger. Request bodies are never logged; as a second line of defence every field that
 * could carry a secret or a full account number is redacted wherever it appears.
 */
import pino, { type Logger } from 'pino';

export const REDACT_PATHS = [
  'authorization',
  'req.headers.authorization',
  'headers.authorization',
  '*.authorization',
  'client_secret',
  '*.client_secret',
  'secret',
  '*.secret',
  'callback_secret',
  '*.callback_secret',
  '*.*.callback_secret',
  'signing_secret',
  '*.signing_secret',
  'account_number',
  '*.account_number',
  '*.*.account_number',
  'admin_token',
  '*.admin_token',
  'password',
  '*.password',
];

const OPTIONS = {
  base: { service: 'tijori' },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label: string) => ({ level: label }) },
};

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ ...OPTIONS, level, redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } }, destination ?? pino.destination({ fd: 2, sync: false }));
}

/**
 * The logger for the one line per request: same stream, level, format and bindings as `log`, but
 * without the redaction pass, which walked every line's object for the wildcard paths and was most
 * of the line's cost. Only for lines whose fields are fixed and hold no secret (ids, route,
 * status, latency, IP); everything else goes through `log`.
 */
export function accessLoggerFor(log: Logger): Logger {
  const stream = (log as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym];
  if (!stream) return log;
  const { service: _service, ...bindings } = log.bindings();
  return pino({ ...OPTIONS, level: log.level }, stream).child(bindings);
}

export type { Logger };
