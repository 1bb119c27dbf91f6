/** The signed-in frame: organization and user, the "Sign out" control, and the navigation of contract §5. */
import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { SessionInfo } from './api.js';
import { NoticesBanner } from './pages/NoticesBanner.js';
import { BASE, navigate } from './router.js';
import { navPages } from './routes.js';
import { setTimeZone, useTimeZone, zoneChoices, zoneName } from './timezone.js';

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
          {navPages(session.permissions).map((p) => (
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
