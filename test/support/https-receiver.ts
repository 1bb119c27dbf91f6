/**
 * A merchant's callback endpoint, for integration tests: HTTPS on 127.0.0.1 with a fresh
 * self-signed certificate, recording every request and checking its signature with the reference
 * verifier. Its behaviour can be scripted (status per request, slow, never answering) and it can be
 * taken down and brought back on the same port, to exercise retries.
 *
 *   const rx = await startHttpsReceiver({ secret: 'whsec_...' });
 *   const dispatcher = createCallbackDispatcher({ allowPrivateNetworks: true, ca: rx.ca });
 *   rx.setResponder(failFirst(2, 500));
 *   ... await rx.waitForRequests(3); ... await rx.stop();
 *
 * A child process that should trust it without a `ca` option: write `rx.ca` to a file and start
 * the child with NODE_EXTRA_CA_CERTS=<file> (see https-receiver.test.ts).
 */
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { verifyCallback } from '../../examples/verifier.js';
import type { VerifyResult } from '../../examples/verifier.js';

export interface ReceivedRequest {
  /** 0-based position in `received`. */
  index: number;
  method: string;
  /** Path and query as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** Date.now() when the body had been read. */
  receivedAt: number;
  /** Verification of signature/timestamp (no replay store: every attempt is judged alone); null when no secret applies to the path. */
  verification: VerifyResult | null;
  /** A verified request with this event id was already answered 2xx before. */
  duplicate: boolean;
  /** Status answered; null while pending or when the receiver never answered. */
  answeredStatus: number | null;
}

export type ResponderAnswer =
  | number
  | {
      status?: number;
      headers?: Record<string, string>;
      body?: string;
      /** Wait this long before answering (a slow merchant). */
      delayMs?: number;
      /** Never answer; the connection stays open until the client gives up or stop() is called. */
      hang?: boolean;
    };

export type Responder = (request: ReceivedRequest) => ResponderAnswer | Promise<ResponderAnswer>;

/** Default behaviour: 200 for a verified request (or when no secret applies), otherwise 401 like the reference verifier. */
export const verifyingResponder: Responder = (r) => (r.verification === null || r.verification.ok ? 200 : 401);

/** Answers `status` to the first `n` requests, then behaves like verifyingResponder. */
export function failFirst(n: number, status = 500): Responder {
  return (r) => (r.index < n ? status : verifyingResponder(r));
}

export interface HttpsReceiverOptions {
  /** Secret(s) for every path without an entry in secretsByPath. */
  secret?: string | string[];
  /** Secret(s) per exact pathname, e.g. { '/payin': 'a', '/payout': 'b' }. */
  secretsByPath?: Record<string, string | string[]>;
  toleranceSeconds?: number;
}

export interface HttpsReceiver {
  /** https://127.0.0.1:PORT + path (default '/'). */
  url(path?: string): string;
  readonly port: number;
  /** PEM of the self-signed certificate: pass as `ca` to trust it. */
  readonly ca: string;
  readonly received: ReceivedRequest[];
  /** TLS connections accepted so far (each one a handshake the sender paid for). */
  readonly connections: number;
  /** null restores verifyingResponder. */
  setResponder(responder: Responder | null): void;
  /** Resolves once at least `count` requests were received (rejects after timeoutMs). */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Goes "down": stops listening and cuts open connections. Also the final clean-up. */
  stop(): Promise<void>;
  /** Comes back on the same port. */
  restart(): Promise<void>;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

async function selfSignedForLocalhost(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec', // fast to generate, unlike RSA
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 60_000), // tolerate small clock differences
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

export async function startHttpsReceiver(options: HttpsReceiverOptions = {}): Promise<HttpsReceiver> {
  const { key, cert } = await selfSignedForLocalhost();
  const received: ReceivedRequest[] = [];
  const acceptedEventIds = new Set<string>();
  const waiters = new Set<() => void>();
  let responder: Responder = verifyingResponder;

  const secretFor = (pathname: string): string | string[] | undefined => options.secretsByPath?.[pathname] ?? options.secret;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readAll(req);
    const path = req.url ?? '/';
    const secret = secretFor(new URL(path, 'https://receiver.invalid').pathname);
    const verification =
      secret === undefined
        ? null
        : await verifyCallback({ rawBody, headers: req.headers, secret, toleranceSeconds: options.toleranceSeconds });
    const eventId = verification?.ok ? verification.eventId : undefined;
    const record: ReceivedRequest = {
      index: received.length,
      method: req.method ?? '',
      path,
      headers: req.headers,
      rawBody,
      receivedAt: Date.now(),
      verification,
      duplicate: eventId !== undefined && acceptedEventIds.has(eventId),
      answeredStatus: null,
    };
    received.push(record);
    for (const wake of waiters) wake();

    const answer = await responder(record);
    const a = typeof answer === 'number' ? { status: answer } : answer;
    if (a.hang) return; // the socket is cut by the client's timeout or by stop()
    if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
    if (res.destroyed) return;
    const status = a.status ?? 200;
    res.writeHead(status, { 'content-type': 'text/plain', ...a.headers });
    res.end(a.body ?? '');
    record.answeredStatus = status;
    if (eventId !== undefined && status >= 200 && status < 300) acceptedEventIds.add(eventId);
  }

  const server: Server = createServer({ key, cert }, (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  let connections = 0;
  server.on('secureConnection', () => connections++);

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });

  await listen(0);
  const port = (server.address() as AddressInfo).port;

  return {
    url: (path = '/') => `https://127.0.0.1:${port}${path.startsWith('/') ? path : `/${path}`}`,
    port,
    ca: cert,
    received,
    get connections() {
      return connections;
    },
    setResponder(fn) {
      responder = fn ?? verifyingResponder;
    },
    waitForRequests(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (received.length < count) return;
          cleanup();
          resolve(received.slice());
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`receiver got ${received.length} of ${count} requests within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (!server.listening) return;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections(); // includes hanging requests and idle keep-alive sockets
      await closed;
    },
    async restart() {
      if (!server.listening) await listen(port);
    },
  };
}
