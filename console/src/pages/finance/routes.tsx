/** The finance pages' paths (contract §9): Balances, Settlements and one settlement, Reconciliation. */
import { lazy, type ReactElement } from 'react';

// Each loads when first opened (App.tsx wraps pages in Suspense), outside the console's first load.
const BalancesPage = lazy(() => import('./BalancesPage.js').then((m) => ({ default: m.BalancesPage })));
const SettlementsPage = lazy(() => import('./SettlementsPage.js').then((m) => ({ default: m.SettlementsPage })));
const SettlementPage = lazy(() => import('./SettlementPage.js').then((m) => ({ default: m.SettlementPage })));
const ReconciliationPage = lazy(() => import('./ReconciliationPage.js').then((m) => ({ default: m.ReconciliationPage })));

export function financePage(path: string, canResolve: boolean): ReactElement | null {
  if (path === '/balances') return <BalancesPage />;
  if (path === '/settlements') return <SettlementsPage />;
  if (path === '/reconciliation') return <ReconciliationPage canResolve={canResolve} />;
  const m = /^\/settlements\/([^/]+)$/.exec(path);
  return m ? <SettlementPage id={decodeURIComponent(m[1] as string)} /> : null;
}
