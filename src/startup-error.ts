/**
 * An operator's mistake found at start-up (the database directory in use, a port taken, a folder
 * PostgreSQL cannot reach): its message is the one line to show, saying what to do; no stack trace.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
