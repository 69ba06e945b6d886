// The dashboard's entry: api.ts first takes a #token=... fragment before the router reads the hash.
import { prefetch } from './api.ts';
import { StrictMode } from 'react';
import { App } from './App.tsx';
import { DEFAULT_PAGE, PAGES } from './pages/index.ts';
import { parseHash } from './route.ts';

// The page the address names gets its first data asked for and its code fetched at once, while
// React's DOM renderer (its own chunk: the most code of any page) is fetched and parsed; and is
// drawn once its code is here (see later() in pages/index.ts).
const route = parseHash(location.hash);
const first = PAGES.find((p) => p.id === (route.page || DEFAULT_PAGE));
for (const path of first?.firstReads?.(route) ?? []) prefetch(path);
const [{ createRoot }] = await Promise.all([import('react-dom/client'), first?.preload?.()]);

const root = document.getElementById('root');
if (!root) throw new Error('the page has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
