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

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'tijori' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ fd: 2, sync: false }),
  );
}

export type { Logger };
