/** `tijori sandbox fail ORDER [--no-callback]` (contract §2). */
import type { CliCommand } from '../command.js';
import { decide, NO_CALLBACK_FLAG, ORDER_ARG } from './sandbox-decide.js';

export const sandboxFail: CliCommand = {
  name: 'sandbox fail',
  summary: 'The sandbox marks the collection of an order failed and, unless --no-callback, sends its provider callback to the service.',
  args: [ORDER_ARG],
  flags: { 'no-callback': NO_CALLBACK_FLAG },
  run({ admin, args, flags }) {
    return decide(admin, args[0] as string, 'fail', { callback: flags['no-callback'] !== true });
  },
};
