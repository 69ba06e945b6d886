import { useEffect, useState } from 'react';

/** A page address: `#/<page>/<part>/<part>...`, parts URI-encoded. */
export type Route = { page: string; parts: string[] };

export function parseHash(hash: string): Route {
  const [page = '', ...parts] = hash.replace(/^#\/?/, '').split('/').map(decodePart);
  return { page, parts };
}

function decodePart(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/** The hash of a page address, e.g. href('tree', run, node) is `#/tree/<run>/<node>`. */
export function href(page: string, ...parts: string[]): string {
  return `#/${[page, ...parts].map(encodeURIComponent).join('/')}`;
}

/** The current route; follows the address bar (links, back and forward, reloads). */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
