// The dashboard's entry: api.ts first takes a #token=... fragment before the router reads the hash.
import './api.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('the page has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
