/** An in-app link: a real href (open in a new tab works) that the router follows without a reload. */
import type { ReactNode } from 'react';
import { BASE, navigate } from '../../router.js';

export function AppLink({ to, children, label }: { to: string; children: ReactNode; label?: string }) {
  return (
    <a
      href={`${BASE}${to}`}
      aria-label={label}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}

export const dash = (v: string | null | undefined): string => (v === null || v === undefined || v === '' ? '—' : v);

/** A table's horizontal scroller: focusable and named, so a keyboard can scroll it (axe scrollable-region-focusable). */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
