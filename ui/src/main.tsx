// The dashboard's entry: api.ts first takes a #token=... fragment before the router reads the hash.
import { prefetch } from './api.ts';
import { StrictMode } from 'react';
import { App } from './App.tsx';
import { DEFAULT_PAGE, PAGES } from './pages/index.ts';
import { parseHash } from './route.ts';

/** How long the first draw waits for the page's first data: longer, and the page shows it loading. */
const FIRST_DATA_WAIT_MS = 300;

// The page the address names gets its first data asked for and its code fetched at once, while
// React's DOM renderer (its own chunk: the most code of any page) is fetched and parsed. It is
// drawn once its code is here (see later() in pages/index.ts), with its data when that came soon:
// one draw, not a loading state drawn and then the page.
const route = parseHash(location.hash);
const first = PAGES.find((p) => p.id === (route.page || DEFAULT_PAGE));
const data = Promise.all((first?.firstReads?.(route) ?? []).map(prefetch));
const soon = Promise.race([data, new Promise((done) => setTimeout(done, FIRST_DATA_WAIT_MS))]);
const [{ createRoot }] = await Promise.all([import('react-dom/client'), first?.preload?.(), soon]);

const root = document.getElementById('root');
if (!root) throw new Error('the page has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
