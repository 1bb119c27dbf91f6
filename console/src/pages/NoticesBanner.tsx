/**
 * The banner of signed-in pages (issue #21 item 4): a callback destination disabled after failing
 * for three days, shown to those who can re-enable it (admins and developers) until it is enabled.
 */
import { useEffect, useRef } from 'react';
import { useResource } from '../data.js';
import { BASE, navigate } from '../router.js';
import type { Answer } from '../wire.js';

type Notices = Answer<'consoleNotices'>;

export function NoticesBanner({ path, show }: { path: string; show: boolean }) {
  const { data, error, reload } = useResource<Notices>(show ? '/notices' : null);
  // Asked again on every page change (re-enabling on the destinations page clears it at once);
  // a failed read shows no banner.
  const shownAt = useRef(path);
  useEffect(() => {
    if (show && shownAt.current !== path) reload();
    shownAt.current = path;
  }, [path]);
  const notices = error ? null : data;
  if (!show || !notices || notices.disabled_destinations.length === 0) return null;
  return (
    <div className="banner" role="alert">
      {notices.disabled_destinations.map((d) => (
        <p key={d.kind}>
          The {d.kind === 'payin' ? 'PayIn' : 'PayOut'} callback destination <code>{d.url}</code> was disabled: every delivery failed for 3 days. Its
          callbacks are kept, not sent.{' '}
          <a
            href={`${BASE}/callback-destinations`}
            onClick={(e) => {
              e.preventDefault();
              navigate('/callback-destinations');
            }}
          >
            Review and re-enable it
          </a>
        </p>
      ))}
    </div>
  );
}
