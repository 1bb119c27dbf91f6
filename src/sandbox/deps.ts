/**
 * What the sandbox's server hands its routes, executor and stats: in a file of its own so that
 * they need not import the server that imports them (no import circle, not even a type-only one).
 */
import type { SandboxFaults } from '../config.js';
import type { Logger } from '../observability/logger.js';
import type { Db } from '../store/db.js';

export interface SandboxDeps {
  db: Db;
  log: Logger;
  /** HMAC key the sandbox signs its callbacks with (the adapter verifies with the same key). */
  signingSecret: string;
  /** Where the sandbox posts its callbacks: the service's provider callback intake. */
  callbackUrl: () => string;
  /** Test/demo fault injection of the bank's submit endpoint (SANDBOX_FAULTS); none when absent. */
  faults?: SandboxFaults;
}
