/** The SDK's WebhookEvent is derived from the service's own list of event types: the two cannot drift. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENT_KINDS, TEST_EVENT_KIND } from '../../src/services/callbacks/events.js';
import { openApiDocument } from '../../src/http/public/openapi.js';
import type { WebhookEventType } from '../src/index.js';

type ServerType = (typeof EVENT_KINDS)[number] | typeof TEST_EVENT_KIND;
// Both directions: every type the service sends is in the SDK's union, and nothing else.
const covers: [ServerType] extends [WebhookEventType] ? ([WebhookEventType] extends [ServerType] ? true : false) : false = true;

test('the document lists a webhook for every event type the service sends, test included', async () => {
  assert.equal(covers, true);
  const doc = await openApiDocument();
  assert.deepEqual(Object.keys(doc.webhooks as object).sort(), [...EVENT_KINDS, TEST_EVENT_KIND].sort());
});
