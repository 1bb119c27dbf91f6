/** `npm start`: one instance of the service, configured from the environment (contract §1). */
import { type Config, loadConfig } from './config.js';
import { createLogger } from './observability/logger.js';
import { LEDGER_OFF_FOR_BENCH } from './services/ledger/post.js';
import { StartRefusedError, startService } from './service.js';
import { StartupError } from './startup-error.js';

/** A configuration the service refuses: one line saying why on standard error, exit 1, nothing started. */
function refuse(message: string): never {
  process.stderr.write(`tijori: ${message}\n`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  refuse((err as Error).message);
}
const log = createLogger(config.logLevel);
if (LEDGER_OFF_FOR_BENCH) log.warn('BENCH_LEDGER_OFF=1: this instance posts no ledger entries (a benchmark switch; never in production)');

try {
  const svc = await startService(config, { log });
  process.stdout.write(`${JSON.stringify({ event: 'listening', public: svc.publicUrl, internal: svc.internalUrl, sandbox: svc.sandboxUrl ?? null })}\n`);
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    log.info({ signal }, 'shutting down: draining requests and workers');
    svc.stop().then(
      () => {
        log.info('stopped');
        log.flush?.();
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
} catch (err) {
  if (err instanceof StartRefusedError) refuse(err.message);
  // What started has been stopped again (startService). An operator's mistake is one line saying
  // what to do; anything else keeps its stack.
  if (err instanceof StartupError) log.fatal(`failed to start: ${err.message}`);
  else log.fatal({ err }, 'failed to start');
  log.flush?.();
  setTimeout(() => process.exit(1), 100);
}
