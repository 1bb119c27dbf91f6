/** The console app: loads the session, then shows set-up, sign-in or the signed-in pages. */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { api, onSessionEnded, type SessionInfo, setCsrfToken } from './api.js';
import { ComingPage, Layout, PAGES } from './Layout.js';
import { OverviewPage } from './pages/overview/OverviewPage.js';
import { SetupPage } from './pages/SetupPage.js';
import { SignInPage } from './pages/SignInPage.js';
import { moneyPage } from './pages/money/routes.js';
import { financePage } from './pages/finance/routes.js';
import { PermissionsContext } from './permissions.js';
import { navigate, usePath } from './router.js';

/**
 * The pages a person opens less often load when first opened (their own chunks), so the first load
 * stays under 100 KB of gzipped JavaScript (test/console/bundle-size.test.ts).
 */
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

export function App() {
  const path = usePath();
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);

  const signedIn = useCallback((s: SessionInfo) => {
    setCsrfToken(s.csrf_token);
    setNotice(null);
    setSession(s);
  }, []);

  useEffect(() => {
    onSessionEnded(() => {
      setCsrfToken(null);
      setSession(null);
      setNotice('Your session has ended. Sign in again.');
    });
    if (path === '/setup') {
      setSession(null);
      return;
    }
    api<SessionInfo>('GET', '/session').then(signedIn, () => setSession(null));
    // Only on first load: later pages change `path` without asking the server again.
  }, []);

  useEffect(() => {
    const title = PAGES.find((p) => p.path === path || (p.path !== '/' && path.startsWith(`${p.path}/`)))?.name ?? (path === '/account' ? 'Your account' : path === '/setup' ? 'Set your password' : 'Sign in');
    document.title = `${session ? title : path === '/setup' ? 'Set your password' : 'Sign in'} · Tijori console`;
  }, [path, session]);

  if (path === '/setup' && !session) return <SetupPage onSignedIn={signedIn} />;
  if (session === undefined) return <p className="loading">Loading…</p>;
  if (session === null) {
    return (
      <SignInPage
        notice={notice}
        onSignedIn={(s) => {
          signedIn(s);
          if (path === '/sign-in' || path === '/setup') navigate('/');
        }}
      />
    );
  }

  async function signOut() {
    try {
      await api('DELETE', '/session');
    } finally {
      setCsrfToken(null);
      setSession(null);
      setNotice('You have signed out.');
      navigate('/sign-in');
    }
  }

  const can = (p: string) => session.permissions.includes(p);
  const money = moneyPage(path);
  const finance = financePage(path, can('reviews.decide'));
  let page;
  if (path === '/api-clients') page = <ApiClientsPage canManage={can('clients.manage')} canApprove={can('users.manage')} />;
  else if (path === '/callback-destinations') page = <DestinationsPage canManage={can('destinations.manage')} />;
  else if (path === '/users') page = <UsersPage canManage={can('users.manage')} self={session.user.user_id} />;
  else if (path === '/audit-log') page = <AuditLogPage />;
  else if (path === '/organization') page = <OrganizationPage canManage={can('org.manage')} onRenamed={() => void api<SessionInfo>('GET', '/session').then(signedIn, () => undefined)} />;
  else if (path === '/events') page = <EventsPage />;
  else if (path === '/refunds') page = <RefundsPage canDecide={can('reviews.decide')} />;
  else if (path === '/new-payout') page = <NewPayoutPage canMake={can('payouts.make')} />;
  else if (path === '/payout-approvals') page = <PayoutApprovalsPage canCheck={can('payouts.check')} self={session.user.user_id} />;
  else if (path === '/bulk-payouts') page = <BulkPayoutsPage canMake={can('payouts.make')} canCheck={can('payouts.check')} self={session.user.user_id} />;
  else if (path === '/review-queue') page = <ReviewQueuePage canDecide={can('reviews.decide')} />;
  else if (money) page = money;
  else if (finance) page = finance;
  else if (path === '/') page = <OverviewPage />;
  else if (path === '/beneficiaries') page = <BeneficiariesPage />;
  else if (path === '/payout-routes') page = <BankConnectionsPage />;
  else if (path === '/provider-accounts') page = can('providers.manage') ? <ProviderAccountsPage /> : <p className="error">Provider accounts are managed by admins.</p>;
  else if (path === '/account') page = <AccountPage session={session} onChanged={signedIn} canManage={can('self.manage')} />;
  else page = <ComingPage name={PAGES.find((p) => p.path === path)?.name ?? 'Overview'} />;
  return (
    <PermissionsContext.Provider value={session.permissions}>
      <Layout session={session} path={path} onSignOut={() => void signOut()}>
        <Suspense fallback={<p className="loading">Loading…</p>}>{page}</Suspense>
      </Layout>
    </PermissionsContext.Provider>
  );
}
