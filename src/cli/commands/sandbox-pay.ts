/** `tijori sandbox pay ORDER [--utr UTR] [--no-callback]` (contract §2). */
import { optionalString } from '../args.js';
import type { CliCommand } from '../command.js';
import { decide, NO_CALLBACK_FLAG, ORDER_ARG } from './sandbox-decide.js';

export const sandboxPay: CliCommand = {
  name: 'sandbox pay',
  summary: 'The sandbox marks the collection of an order paid (a 12-digit UTR) and, unless --no-callback, sends its provider callback to the service.',
  args: [ORDER_ARG],
  flags: {
    utr: { type: 'string', value: 'UTR', help: 'the UTR to report (default: a random 12-digit one)' },
    'no-callback': NO_CALLBACK_FLAG,
  },
  run({ admin, args, flags }) {
    const utr = optionalString(flags, 'utr');
    return decide(admin, args[0] as string, 'pay', { callback: flags['no-callback'] !== true, ...(utr ? { utr } : {}) });
  },
};
