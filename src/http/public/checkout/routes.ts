/**
 * The hosted checkout behind `checkout_url` (API §4.1): server-rendered pages, a token-scoped JSON
 * status endpoint the page polls, and the payer's steps. The page learns the payment state only
 * from the server; it never trusts URL or return parameters and holds no merchant secret.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import QRCode from 'qrcode';
import type { AppContext } from '../../../context.js';
import { AppError } from '../../../domain/errors.js';
import { PHONE_INPUT_MAX_LENGTH } from '../../../domain/phone.js';
import type { CheckoutView as OrderCheckoutView } from '../../../services/payin/payment-order-view.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { rejectSensitiveData } from '../../plugins/sensitive-data.js';
import { type CheckoutView, renderCheckout, renderNotFound } from './templates.js';

const ASSETS = join(dirname(fileURLToPath(import.meta.url)), 'assets');

/** No inline script or style, nothing from another origin, no framing. */
export const CHECKOUT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(reply: FastifyReply, httpsOrigin: boolean): void {
  reply.header('content-security-policy', CHECKOUT_CSP);
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  if (httpsOrigin) reply.header('strict-transport-security', 'max-age=31536000');
}

const TokenParams = Type.Object({ token: Type.String({ minLength: 16, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) });
const DetailsBody = Type.Object(
  {
    customer_name: Type.String({ maxLength: 120 }),
    customer_email: Type.String({ maxLength: 190 }),
    // Any usual spelling ("+91 98765 43210"); normalised to the 10 digits by src/domain/phone.ts.
    customer_phone: Type.String({ maxLength: PHONE_INPUT_MAX_LENGTH }),
    customer_consent: Type.Boolean(),
  },
  { additionalProperties: false },
);
const ReferenceBody = Type.Object({ payer_reference: Type.String({ maxLength: 35 }) }, { additionalProperties: false });
const SimulateBody = Type.Object({ outcome: Type.Union([Type.Literal('pay'), Type.Literal('fail')]) }, { additionalProperties: false });

/**
 * At least this many CSS pixels wide, so a phone camera held at arm's length in front of a desktop
 * screen reads it; the whole-pixel rounding below adds less than one module per module row, so
 * every intent's QR stays under ~330 px and fits a 390 px phone with the page's padding (a 360 px
 * one scales it down a little, see .qr svg in checkout.css).
 */
export const QR_MIN_PX = 240;
const QR_MARGIN = 4; // the quiet zone the QR standard asks for, in modules

/**
 * The intent's QR as inline SVG, sized to a whole number of pixels per module so that every module
 * is drawn the same size (sharper for a phone camera than a scaled, anti-aliased image).
 */
async function qrSvgFor(intent: string): Promise<string> {
  const modules = QRCode.create(intent, { errorCorrectionLevel: 'M' }).modules.size + 2 * QR_MARGIN;
  const width = modules * Math.max(2, Math.ceil(QR_MIN_PX / modules));
  return QRCode.toString(intent, { type: 'svg', errorCorrectionLevel: 'M', margin: QR_MARGIN, width });
}

async function toTemplateView(token: string, v: OrderCheckoutView, assetVersion: string): Promise<CheckoutView> {
  const qrSvg = v.upi_uri ? await qrSvgFor(v.upi_uri) : null;
  return {
    token,
    assetVersion,
    status: v.status,
    merchantName: v.merchant_name,
    amountPaise: v.amount_paise,
    purpose: v.purpose,
    upiIntent: v.upi_uri,
    qrSvg,
    expiresAt: v.expires_at,
    returnUrl: v.return_url,
    livemode: v.livemode,
    orderReference: v.merchant_order_reference ?? v.order_id,
    bankTransactionId: v.bank_transaction_id,
    confirmedAt: v.confirmed_at,
    payerReference: v.payer_reference,
  };
}

function statusData(v: OrderCheckoutView) {
  return { status: v.status, expires_at: v.expires_at, server_time: new Date().toISOString() };
}

export async function registerCheckoutRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const css = readFileSync(join(ASSETS, 'checkout.css'));
  const js = readFileSync(join(ASSETS, 'checkout.js'));
  // Pages link the assets with ?v=<hash of both>, so browsers may cache them for long and still
  // never pair a new page with an old script.
  const assetVersion = createHash('sha256').update(css).update(js).digest('hex').slice(0, 12);
  const assetCache = 'public, max-age=31536000, immutable';
  const https = ctx.publicBaseUrl().startsWith('https:');
  const hide = { hide: true };
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  // Every checkout request (page, assets, polls, steps, unknown tokens) counts against its source
  // address: the checkout has no credentials, so this is all that stands between a script and
  // the database. The limit is far above what payers behind one address do (docs/operations.md).
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/checkout/')) return;
    securityHeaders(reply, https);
    const refused = await ctx.sourceLimits.checkoutRequest(request.ip);
    if (refused) throw refused;
  });

  app.get('/checkout/assets/checkout.css', { schema: hide }, async (_req, reply) =>
    reply.header('cache-control', assetCache).type('text/css; charset=utf-8').send(css),
  );
  app.get('/checkout/assets/checkout.js', { schema: hide }, async (_req, reply) =>
    reply.header('cache-control', assetCache).type('text/javascript; charset=utf-8').send(js),
  );

  // The page. Query parameters (e.g. a forged ?status=PAID) are ignored by construction.
  // No params schema here on purpose: a malformed token gets the not-found page, not a JSON 422.
  api.get<{ Params: { token: string } }>('/checkout/:token', { schema: hide }, async (request, reply) => {
    const { token } = request.params;
    let view: OrderCheckoutView;
    try {
      if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) throw new AppError('NOT_FOUND', 'No such checkout.');
      view = await ctx.paymentOrders.getByCheckoutToken(token);
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return reply.code(404).type('text/html; charset=utf-8').send(renderNotFound(assetVersion));
      throw err;
    }
    const html = renderCheckout(await toTemplateView(token, view, assetVersion));
    return reply.code(view.status === 'EXPIRED' ? 410 : 200).type('text/html; charset=utf-8').send(html);
  });

  api.get('/checkout/:token/status', { schema: { ...hide, params: TokenParams } }, async (request) => {
    const { token } = request.params;
    return okEnvelope(request, statusData(await ctx.paymentOrders.getByCheckoutToken(token, { liveCheck: true })));
  });

  api.post('/checkout/:token/details', { schema: { ...hide, params: TokenParams, body: DetailsBody }, preValidation: async (r) => rejectSensitiveData(r.body) }, async (request) => {
    const { token } = request.params;
    const b = request.body;
    const v = await ctx.paymentOrders.submitPayerDetails(token, { name: b.customer_name, email: b.customer_email, phone: b.customer_phone, consent: b.customer_consent });
    return okEnvelope(request, statusData(v));
  });

  api.post('/checkout/:token/reference', { schema: { ...hide, params: TokenParams, body: ReferenceBody }, preValidation: async (r) => rejectSensitiveData(r.body) }, async (request) => {
    const { token } = request.params;
    const v = await ctx.paymentOrders.submitPayerReference(token, request.body.payer_reference);
    return okEnvelope(request, statusData(v));
  });

  // Sandbox only: the service asks the sandbox PSP (over HTTP) to decide, as a bank would.
  api.post('/checkout/:token/simulate', { schema: { ...hide, params: TokenParams, body: SimulateBody }, preValidation: async (r) => rejectSensitiveData(r.body) }, async (request) => {
    const { token } = request.params;
    const current = await ctx.paymentOrders.getByCheckoutToken(token);
    // A livemode order moves real money: nobody holding its link may decide it.
    if (current.livemode) throw new AppError('NOT_FOUND', 'No such resource or path.');
    const v = await ctx.paymentOrders.simulateSandboxOutcome(token, request.body.outcome);
    return okEnvelope(request, statusData(v));
  });
}
