/** The money pages' paths: the two lists and one order's or payout's page. */
import { lazy, type ReactElement } from 'react';
import { PaymentOrdersPage } from './PaymentOrdersPage.js';
import { PayoutsPage } from './PayoutsPage.js';

// One record's page loads when first opened (App.tsx wraps pages in Suspense).
const OrderPage = lazy(() => import('./OrderPage.js').then((m) => ({ default: m.OrderPage })));
const PayoutPage = lazy(() => import('./PayoutPage.js').then((m) => ({ default: m.PayoutPage })));

export function moneyPage(path: string): ReactElement | null {
  if (path === '/payment-orders') return <PaymentOrdersPage />;
  if (path === '/payouts') return <PayoutsPage />;
  const m = /^\/(payment-orders|payouts)\/([^/]+)$/.exec(path);
  if (!m) return null;
  const id = decodeURIComponent(m[2] as string);
  return m[1] === 'payment-orders' ? <OrderPage id={id} /> : <PayoutPage id={id} />;
}
