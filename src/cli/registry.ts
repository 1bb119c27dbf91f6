/** Every `tijori` command, in the order the global usage lists them. A new command: its file, and one line here. */
import type { CliCommand } from './command.js';
import { callbacksReplay } from './commands/callbacks-replay.js';
import { callbacksShow } from './commands/callbacks-show.js';
import { clientAllowIp } from './commands/client-allow-ip.js';
import { clientCreate } from './commands/client-create.js';
import { clientList } from './commands/client-list.js';
import { clientRotateSecret } from './commands/client-rotate-secret.js';
import { clientSet } from './commands/client-set.js';
import { destinationEnable } from './commands/destination-enable.js';
import { destinationActivateSecret, destinationRotateSecret } from './commands/destination-secret.js';
import { destinationSet } from './commands/destination-set.js';
import { eventList } from './commands/event-list.js';
import { eventReplay } from './commands/event-replay.js';
import { collectionsUse } from './commands/collections-use.js';
import { keysRotateMaster } from './commands/keys-rotate-master.js';
import { ledgerBalances } from './commands/ledger-balances.js';
import { ledgerVerify } from './commands/ledger-verify.js';
import { orgCreate } from './commands/org-create.js';
import { orgList } from './commands/org-list.js';
import { providerAdd } from './commands/provider-add.js';
import { providerList } from './commands/provider-list.js';
import { orgSet } from './commands/org-set.js';
import { bankConnectionCreate } from './commands/bank-connection-create.js';
import { sandboxFail } from './commands/sandbox-fail.js';
import { sandboxPay } from './commands/sandbox-pay.js';
import { sandboxServe } from './commands/sandbox-serve.js';
import { sandboxStats } from './commands/sandbox-stats.js';
import { reconBreaks, reconPayoutCheck, sandboxSettle, settlementsList, settlementsSync } from './commands/settlements.js';
import { userCreate } from './commands/user-create.js';
import { userList } from './commands/user-list.js';

export const cliCommands: CliCommand[] = [
  orgCreate,
  orgSet,
  orgList,
  clientCreate,
  clientList,
  clientAllowIp,
  clientRotateSecret,
  clientSet,
  destinationSet,
  destinationEnable,
  destinationRotateSecret,
  destinationActivateSecret,
  bankConnectionCreate,
  providerAdd,
  providerList,
  collectionsUse,
  sandboxPay,
  sandboxFail,
  sandboxStats,
  sandboxSettle,
  sandboxServe,
  settlementsSync,
  settlementsList,
  reconBreaks,
  reconPayoutCheck,
  callbacksReplay,
  callbacksShow,
  eventList,
  eventReplay,
  ledgerBalances,
  ledgerVerify,
  userCreate,
  userList,
  keysRotateMaster,
];
