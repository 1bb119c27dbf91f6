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

/**
 * Lines are gathered up to LOG_BUFFER_BYTES and written in one `write(2)`, and whatever is gathered
 * is written at least every LOG_FLUSH_MS (issue #36): one write per line was ~6 % of the service's
 * CPU per create (a thread-pool hop and a syscall each; an access line per request, more per payout).
 * pino flushes the buffer synchronously on exit and on the termination signals, so a line can be
 * lost only by a kill -9 or a power cut, and at most LOG_FLUSH_MS of lines (pino's "Asynchronous
 * logging" caveat). Logs are not records: money and its events are in PostgreSQL.
 */
export const LOG_BUFFER_BYTES = 4096;
export const LOG_FLUSH_MS = 250;

function bufferedStderr(): pino.DestinationStream {
  const dest = pino.destination({ fd: 2, sync: false, minLength: LOG_BUFFER_BYTES });
  setInterval(() => dest.flush(), LOG_FLUSH_MS).unref();
  return dest;
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ ...OPTIONS, level, redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } }, destination ?? bufferedStderr());
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
