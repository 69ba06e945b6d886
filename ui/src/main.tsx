// The dashboard's entry: api.ts first takes a #token=... fragment before the router reads the hash.
import { prefetch } from './api.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { DEFAULT_PAGE, PAGES } from './pages/index.ts';
import { parseHash } from './route.ts';

// the page the address names: its first data asked for and its code fetched before the first
// draw, at once (see later() in pages/index.ts)
const route = parseHash(location.hash);
const first = PAGES.find((p) => p.id === (route.page || DEFAULT_PAGE));
for (const path of first?.firstReads?.(route) ?? []) prefetch(path);
await first?.preload?.();

const root = document.getElementById('root');
if (!root) throw new Error('the page has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
