/** The money pages' paths: the two lists and one order's or payout's page. */
import type { ReactElement } from 'react';
import { OrderPage } from './OrderPage.js';
import { PaymentOrdersPage } from './PaymentOrdersPage.js';
import { PayoutPage } from './PayoutPage.js';
import { PayoutsPage } from './PayoutsPage.js';

export function moneyPage(path: string): ReactElement | null {
  if (path === '/payment-orders') return <PaymentOrdersPage />;
  if (path === '/payouts') return <PayoutsPage />;
  const m = /^\/(payment-orders|payouts)\/([^/]+)$/.exec(path);
  if (!m) return null;
  const id = decodeURIComponent(m[2] as string);
  return m[1] === 'payment-orders' ? <OrderPage id={id} /> : <PayoutPage id={id} />;
}
