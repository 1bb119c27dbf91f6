/**
 * The console app: loads the session, then shows set-up, sign-in or the signed-in page of the path
 * (routes.tsx), inside the data layer's provider (data.tsx).
 */
import { Suspense, useCallback, useEffect, useState } from 'react';
import { api, onSessionEnded, type SessionInfo, setCsrfToken } from './api.js';
import { Loading } from './components.js';
import { DataProvider, queryClient } from './data.js';
import { Layout } from './Layout.js';
import { SetupPage } from './pages/SetupPage.js';
import { SignInPage } from './pages/SignInPage.js';
import { PermissionsContext } from './permissions.js';
import { navigate, usePath } from './router.js';
import { findRoute, type PageContext } from './routes.js';

export function App() {
  return (
    <DataProvider>
      <Console />
    </DataProvider>
  );
}

function Console() {
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
      // Nothing read for one session is shown to the next.
      queryClient.clear();
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
    const title = findRoute(path)?.route.name ?? (path === '/setup' ? 'Set your password' : 'Page not found');
    document.title = `${session ? title : path === '/setup' ? 'Set your password' : 'Sign in'} · Tijori console`;
  }, [path, session]);

  if (path === '/setup' && !session) return <SetupPage onSignedIn={signedIn} />;
  if (session === undefined) return <Loading page />;
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
      queryClient.clear();
      setSession(null);
      setNotice('You have signed out.');
      navigate('/sign-in');
    }
  }

  const ctx: PageContext = {
    session,
    can: (p: string) => session.permissions.includes(p),
    onSession: signedIn,
    reloadSession: () => void api<SessionInfo>('GET', '/session').then(signedIn, () => undefined),
  };
  const found = findRoute(path);
  const page = found ? found.route.page(ctx, found.id) : <NotFound />;
  return (
    <PermissionsContext.Provider value={session.permissions}>
      <Layout session={session} path={path} onSignOut={() => void signOut()}>
        <Suspense fallback={<Loading page />}>{page}</Suspense>
      </Layout>
    </PermissionsContext.Provider>
  );
}

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>There is no such page in the console. Choose one in the navigation.</p>
    </>
  );
}
