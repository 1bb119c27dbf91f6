/**
 * Connections to one merchant are capped (CONNECTIONS_PER_ORIGIN): a burst of attempts waits for
 * a free connection instead of opening (and TLS-handshaking) one per attempt, and every attempt
 * still arrives.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CONNECTIONS_PER_ORIGIN, createCallbackDispatcher, postCallback } from '../../src/net/safe-dispatcher.js';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver.js';

let rx: HttpsReceiver;
before(async () => {
  rx = await startHttpsReceiver();
  rx.setResponder(() => ({ status: 200, delayMs: 20 })); // a merchant that takes a moment
});
after(() => rx.stop());

test(`a burst of 4 x ${CONNECTIONS_PER_ORIGIN} attempts to one merchant uses at most ${CONNECTIONS_PER_ORIGIN} connections, and all arrive`, async () => {
  const dispatcher = createCallbackDispatcher({ allowPrivateNetworks: true, ca: rx.ca });
  try {
    const n = 4 * CONNECTIONS_PER_ORIGIN;
    const results = await Promise.all(
      Array.from({ length: n }, (_x, i) =>
        postCallback({ dispatcher, url: rx.url(`/hook/${i}`), headers: { 'content-type': 'application/json' }, body: `{"n":${i}}`, timeoutMs: 10_000 }),
      ),
    );
    assert.deepEqual(results.filter((r) => !r.ok), []);
    assert.equal(rx.received.length, n);
    assert.ok(rx.connections >= 1 && rx.connections <= CONNECTIONS_PER_ORIGIN, `${rx.connections} connections for ${n} attempts`);
  } finally {
    await dispatcher.close();
  }
});
