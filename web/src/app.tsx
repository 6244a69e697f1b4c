import { useEffect, useRef, useState } from 'preact/hooks';
import { apiKey, onUnauthorized } from './api-client.js';
import { useNotices } from './hooks.js';
import { Link, navigate, useLocation, type Location } from './router.js';
import { SignInView } from './views/sign-in.view.js';
import { ConversationsView } from './views/conversations.view.js';
import { ConversationView } from './views/conversation.view.js';
import { SearchView } from './views/search.view.js';
import { ContextView } from './views/context.view.js';
import { PruneView } from './views/prune.view.js';
import { DashboardView } from './views/dashboard.view.js';

const sections = [
  { path: '/', label: 'Conversations', matches: (path: string) => path === '/' || path.startsWith('/conversations') },
  { path: '/search', label: 'Search', matches: (path: string) => path.startsWith('/search') },
  { path: '/context', label: 'Context', matches: (path: string) => path.startsWith('/context') },
  { path: '/prune', label: 'Prune', matches: (path: string) => path.startsWith('/prune') },
  { path: '/dashboard', label: 'Dashboard', matches: (path: string) => path.startsWith('/dashboard') },
];

function route(location: Location) {
  const { path, params } = location;
  const conversation = /^\/conversations\/([^/]+)$/.exec(path);
  if (conversation?.[1]) return <ConversationView id={decodeURIComponent(conversation[1])} params={params} />;
  if (path === '/' || path === '/conversations') return <ConversationsView params={params} />;
  if (path === '/search') return <SearchView params={params} />;
  if (path === '/context') return <ContextView />;
  if (path === '/prune') return <PruneView />;
  if (path === '/dashboard') return <DashboardView />;
  return (
    <section class="panel">
      <h1>Not found</h1>
      <p>There is no page at <code>{path}</code>. <Link href="/">Go to the conversations</Link>.</p>
    </section>
  );
}

export function App() {
  const location = useLocation();
  const [signedIn, setSignedIn] = useState(() => apiKey.get() !== null);
  const [signInMessage, setSignInMessage] = useState<string | undefined>();
  const [notices, dismiss] = useNotices();
  const main = useRef<HTMLElement>(null);

  useEffect(() => onUnauthorized((message) => { setSignInMessage(message); setSignedIn(false); }), []);
  // After a navigation, focus moves to the page so keyboard and screen-reader users start at its top.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) { first.current = false; return; }
    if (!location.params.get('m')) main.current?.focus({ preventScroll: true });
  }, [location.path]);

  if (!signedIn) {
    return <SignInView message={signInMessage} onSignedIn={() => { setSignInMessage(undefined); setSignedIn(true); }} />;
  }

  return (
    <div class="shell">
      <a class="skip-link" href="#main">Skip to content</a>
      <header class="topbar">
        <Link href="/" class="brand"><img src="/favicon.svg" alt="" width="24" height="24" /> memsvc</Link>
        <nav aria-label="Sections" class="sections">
          <ul>
            {sections.map((section) => (
              <li key={section.path}>
                <Link href={section.path} aria-current={section.matches(location.path) ? 'page' : undefined}>{section.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" class="quiet sign-out" onClick={() => {
          apiKey.clear();
          setSignInMessage('Signed out.');
          setSignedIn(false);
          navigate('/', { replace: true });
        }}>Sign out</button>
      </header>
      <main id="main" ref={main} tabIndex={-1}>{route(location)}</main>
      <div class="notices" role="status" aria-live="polite">
        {notices.map((notice) => (
          <div key={notice.id} class={`notice notice-${notice.kind}`}>
            <span>{notice.text}</span>
            <button type="button" class="quiet" aria-label="Dismiss" onClick={() => dismiss(notice.id)}>×</button>
          </div>
        ))}
      </div>
    </div>
  );
}
