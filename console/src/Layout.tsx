/** The signed-in frame: organization and user, the "Sign out" control, and the navigation of contract §5. */
import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { SessionInfo } from './api.js';
import { NoticesBanner } from './pages/NoticesBanner.js';
import { BASE, navigate } from './router.js';
import { setTimeZone, useTimeZone, zoneChoices, zoneName } from './timezone.js';

/**
 * The pages of contract §5, in its order; `built` false shows an honest "not built yet" page;
 * `need`: the permission without which the page is not in the navigation (its API refuses too).
 */
export const PAGES: ReadonlyArray<{ path: string; name: string; built: boolean; need?: string }> = [
  { path: '/', name: 'Overview', built: true },
  { path: '/payment-orders', name: 'Payment orders', built: true },
  { path: '/payouts', name: 'Payouts', built: true },
  { path: '/new-payout', name: 'New payout', built: true, need: 'payouts.make' },
  { path: '/payout-approvals', name: 'Payout approvals', built: true },
  { path: '/refunds', name: 'Refunds', built: true },
  { path: '/review-queue', name: 'Review queue', built: true },
  { path: '/balances', name: 'Balances', built: true },
  { path: '/settlements', name: 'Settlements', built: true },
  { path: '/reconciliation', name: 'Reconciliation', built: true },
  { path: '/bulk-payouts', name: 'Bulk payouts', built: true },
  { path: '/beneficiaries', name: 'Beneficiaries', built: true },
  { path: '/api-clients', name: 'API clients', built: true },
  { path: '/callback-destinations', name: 'Callback destinations', built: true },
  { path: '/payout-routes', name: 'Payout routes', built: true },
  { path: '/provider-accounts', name: 'Provider accounts', built: true, need: 'providers.manage' },
  { path: '/events', name: 'Events', built: true },
  { path: '/users', name: 'Users', built: true },
  { path: '/audit-log', name: 'Audit log', built: true },
  { path: '/organization', name: 'Organization', built: true },
];

function link(path: string) {
  return (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(path);
  };
}

/** The header's "Time zone" field: every date and day boundary of the console follows it (India's by default). */
function ZonePicker() {
  const zone = useTimeZone();
  return (
    <span className="zone">
      <label htmlFor="time-zone">Time zone</label>
      <select id="time-zone" value={zone} onChange={(e) => setTimeZone(e.target.value)}>
        {zoneChoices().map((z) => (
          <option key={z} value={z}>
            {z === 'UTC' ? 'UTC' : `${z.replace(/_/g, ' ')} (${zoneName(z)})`}
          </option>
        ))}
      </select>
    </span>
  );
}

export function Layout({ session, path, onSignOut, children }: { session: SessionInfo; path: string; onSignOut: () => void; children: ReactNode }) {
  // On a phone the navigation is one scrolling row until "All pages" opens it (issue #32 item 3).
  const [open, setOpen] = useState(false);
  // On a phone the current page's link is scrolled into the row, so the row says where one is.
  const navRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const current = navRef.current?.querySelector('a[aria-current="page"]');
    const list = current?.closest('ul');
    if (current instanceof HTMLElement && list && list.scrollWidth > list.clientWidth) list.scrollLeft += current.getBoundingClientRect().left - list.getBoundingClientRect().left - 16;
  }, [path]);
  return (
    <div className="shell">
      <header className="top">
        <a className="brand" href={`${BASE}/`} onClick={link('/')}>
          Tijori
        </a>
        <span className="org">{session.organization.name}</span>
        <span className="who">
          <a href={`${BASE}/account`} onClick={link('/account')} aria-current={path === '/account' ? 'page' : undefined}>
            {session.user.email}
          </a>{' '}
          <span className="role">({session.user.role})</span>
        </span>
        <ZonePicker />
        <button type="button" className="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <nav aria-label="Console" className={open ? 'open' : undefined} ref={navRef}>
        <button type="button" className="secondary nav-toggle" aria-expanded={open} aria-controls="nav-pages" onClick={() => setOpen((o) => !o)}>
          {open ? 'Fewer' : 'All pages'}
        </button>
        <ul id="nav-pages">
          {PAGES.filter((p) => !p.need || session.permissions.includes(p.need)).map((p) => (
            <li key={p.path}>
              <a
                href={`${BASE}${p.path}`}
                onClick={(e) => {
                  setOpen(false);
                  link(p.path)(e);
                }}
                aria-current={path === p.path ? 'page' : undefined}>
                {p.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content">
        <NoticesBanner path={path} show={session.permissions.includes('destinations.manage')} />
        {children}
      </main>
    </div>
  );
}

export function ComingPage({ name }: { name: string }) {
  return (
    <>
      <h1>{name}</h1>
      <p className="coming">This page is not built yet. It is planned in the console's issue; until then the merchant API and the CLI cover it.</p>
    </>
  );
}
