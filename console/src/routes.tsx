/**
 * The console's one routing table (issue #30 item 5): every signed-in page, its path, its name (the
 * navigation's link, the document's title), whether it is in the navigation and for whom, and what
 * it draws. App.tsx finds the page here, Layout.tsx draws the navigation from it; nothing else
 * lists the pages.
 *
 * The pages a person opens less often load when first opened (their own chunks, `React.lazy`), so
 * the first load stays under 100 KB of gzipped JavaScript (test/console/bundle-size.test.ts); the
 * Overview and the two money lists stay in the first load.
 */
import { lazy, type ReactElement } from 'react';
import type { SessionInfo } from './api.js';
import { PaymentOrdersPage } from './pages/money/PaymentOrdersPage.js';
import { PayoutsPage } from './pages/money/PayoutsPage.js';
import { OverviewPage } from './pages/overview/OverviewPage.js';

const AccountPage = lazy(() => import('./pages/AccountPage.js').then((m) => ({ default: m.AccountPage })));
const ApiClientsPage = lazy(() => import('./pages/ApiClientsPage.js').then((m) => ({ default: m.ApiClientsPage })));
const AuditLogPage = lazy(() => import('./pages/AuditLogPage.js').then((m) => ({ default: m.AuditLogPage })));
const BeneficiariesPage = lazy(() => import('./pages/BeneficiariesPage.js').then((m) => ({ default: m.BeneficiariesPage })));
const DestinationsPage = lazy(() => import('./pages/DestinationsPage.js').then((m) => ({ default: m.DestinationsPage })));
const BankConnectionsPage = lazy(() => import('./pages/BankConnectionsPage.js').then((m) => ({ default: m.BankConnectionsPage })));
const ProviderAccountsPage = lazy(() => import('./pages/ProviderAccountsPage.js').then((m) => ({ default: m.ProviderAccountsPage })));
const RefundsPage = lazy(() => import('./pages/RefundsPage.js').then((m) => ({ default: m.RefundsPage })));
const ReviewQueuePage = lazy(() => import('./pages/ReviewQueuePage.js').then((m) => ({ default: m.ReviewQueuePage })));
const UsersPage = lazy(() => import('./pages/UsersPage.js').then((m) => ({ default: m.UsersPage })));
const BulkPayoutsPage = lazy(() => import('./pages/approvals/BulkPayoutsPage.js').then((m) => ({ default: m.BulkPayoutsPage })));
const NewPayoutPage = lazy(() => import('./pages/approvals/NewPayoutPage.js').then((m) => ({ default: m.NewPayoutPage })));
const PayoutApprovalsPage = lazy(() => import('./pages/approvals/PayoutApprovalsPage.js').then((m) => ({ default: m.PayoutApprovalsPage })));
const EventsPage = lazy(() => import('./pages/EventsPage.js').then((m) => ({ default: m.EventsPage })));
const OrganizationPage = lazy(() => import('./pages/OrganizationPage.js').then((m) => ({ default: m.OrganizationPage })));
const OrderPage = lazy(() => import('./pages/money/OrderPage.js').then((m) => ({ default: m.OrderPage })));
const PayoutPage = lazy(() => import('./pages/money/PayoutPage.js').then((m) => ({ default: m.PayoutPage })));
const BalancesPage = lazy(() => import('./pages/finance/BalancesPage.js').then((m) => ({ default: m.BalancesPage })));
const SettlementsPage = lazy(() => import('./pages/finance/SettlementsPage.js').then((m) => ({ default: m.SettlementsPage })));
const SettlementPage = lazy(() => import('./pages/finance/SettlementPage.js').then((m) => ({ default: m.SettlementPage })));
const ReconciliationPage = lazy(() => import('./pages/finance/ReconciliationPage.js').then((m) => ({ default: m.ReconciliationPage })));

/** What a page may need from the signed-in frame. */
export interface PageContext {
  session: SessionInfo;
  can: (permission: string) => boolean;
  /** The session changed (organization renamed, second factor turned on): App keeps the new one. */
  onSession: (s: SessionInfo) => void;
  /** Read the session again (after a change the server holds, e.g. the organization's name). */
  reloadSession: () => void;
}

export interface PageRoute {
  /** The path below /console; `:id` matches one segment, handed to `page` decoded. */
  path: string;
  /** The navigation's link and the document's title (a record's page takes its list's name). */
  name: string;
  /** In the navigation (contract §5's pages, in its order). */
  nav: boolean;
  /** The permission without which the page is not in the navigation (its API refuses too). */
  need?: string;
  page: (ctx: PageContext, id: string) => ReactElement;
}

export const ROUTES: ReadonlyArray<PageRoute> = [
  { path: '/', name: 'Overview', nav: true, page: () => <OverviewPage /> },
  { path: '/payment-orders', name: 'Payment orders', nav: true, page: () => <PaymentOrdersPage /> },
  { path: '/payment-orders/:id', name: 'Payment orders', nav: false, page: (_, id) => <OrderPage id={id} /> },
  { path: '/payouts', name: 'Payouts', nav: true, page: () => <PayoutsPage /> },
  { path: '/payouts/:id', name: 'Payouts', nav: false, page: (_, id) => <PayoutPage id={id} /> },
  { path: '/new-payout', name: 'New payout', nav: true, need: 'payouts.make', page: ({ can }) => <NewPayoutPage canMake={can('payouts.make')} /> },
  {
    path: '/payout-approvals',
    name: 'Payout approvals',
    nav: true,
    page: ({ can, session }) => <PayoutApprovalsPage canCheck={can('payouts.check')} self={session.user.user_id} />,
  },
  { path: '/refunds', name: 'Refunds', nav: true, page: ({ can }) => <RefundsPage canDecide={can('reviews.decide')} /> },
  { path: '/review-queue', name: 'Review queue', nav: true, page: ({ can }) => <ReviewQueuePage canDecide={can('reviews.decide')} /> },
  { path: '/balances', name: 'Balances', nav: true, page: () => <BalancesPage /> },
  { path: '/settlements', name: 'Settlements', nav: true, page: () => <SettlementsPage /> },
  { path: '/settlements/:id', name: 'Settlements', nav: false, page: (_, id) => <SettlementPage id={id} /> },
  { path: '/reconciliation', name: 'Reconciliation', nav: true, page: ({ can }) => <ReconciliationPage canResolve={can('reviews.decide')} /> },
  {
    path: '/bulk-payouts',
    name: 'Bulk payouts',
    nav: true,
    page: ({ can, session }) => <BulkPayoutsPage canMake={can('payouts.make')} canCheck={can('payouts.check')} self={session.user.user_id} />,
  },
  { path: '/beneficiaries', name: 'Beneficiaries', nav: true, page: () => <BeneficiariesPage /> },
  { path: '/api-clients', name: 'API clients', nav: true, page: ({ can }) => <ApiClientsPage canManage={can('clients.manage')} canApprove={can('users.manage')} /> },
  { path: '/callback-destinations', name: 'Callback destinations', nav: true, page: ({ can }) => <DestinationsPage canManage={can('destinations.manage')} /> },
  { path: '/payout-routes', name: 'Payout routes', nav: true, page: () => <BankConnectionsPage /> },
  {
    path: '/provider-accounts',
    name: 'Provider accounts',
    nav: true,
    need: 'providers.manage',
    page: ({ can }) => (can('providers.manage') ? <ProviderAccountsPage /> : <p className="error">Provider accounts are managed by admins.</p>),
  },
  { path: '/events', name: 'Events', nav: true, page: () => <EventsPage /> },
  { path: '/users', name: 'Users', nav: true, page: ({ can, session }) => <UsersPage canManage={can('users.manage')} self={session.user.user_id} /> },
  { path: '/audit-log', name: 'Audit log', nav: true, page: () => <AuditLogPage /> },
  { path: '/organization', name: 'Organization', nav: true, page: ({ can, reloadSession }) => <OrganizationPage canManage={can('org.manage')} onRenamed={reloadSession} /> },
  { path: '/account', name: 'Your account', nav: false, page: ({ session, onSession, can }) => <AccountPage session={session} onChanged={onSession} canManage={can('self.manage')} /> },
];

/** The navigation's pages a session with these permissions sees. */
export function navPages(permissions: readonly string[]): PageRoute[] {
  return ROUTES.filter((r) => r.nav && (!r.need || permissions.includes(r.need)));
}

/** The route of a path and its `:id` (decoded), or null (an unknown path). */
export function findRoute(path: string): { route: PageRoute; id: string } | null {
  for (const route of ROUTES) {
    if (!route.path.includes(':')) {
      if (route.path === path) return { route, id: '' };
      continue;
    }
    const prefix = route.path.slice(0, route.path.indexOf(':'));
    const rest = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    if (rest !== '' && !rest.includes('/')) {
      try {
        return { route, id: decodeURIComponent(rest) };
      } catch {
        return null;
      }
    }
  }
  return null;
}
