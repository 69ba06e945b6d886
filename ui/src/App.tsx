import { Suspense, useEffect, useRef } from 'react';
import { Confirmations } from './components/Confirmations.tsx';
import { Nav } from './components/Nav.tsx';
import { Loading } from './components/states.tsx';
import { DEFAULT_PAGE, PAGES } from './pages/index.ts';
import { href, useRoute } from './route.ts';

/** The dashboard: the navigation, approvals waiting on any page, and the page the address names. */
export function App() {
  const route = useRoute();
  const page = PAGES.find((p) => p.id === (route.page || DEFAULT_PAGE));
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    document.title = page ? `${page.title} · svc` : 'svc dashboard';
  }, [page]);
  return (
    <div className="shell">
      <a className="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <Nav current={page?.id ?? null} />
      <main id="main" ref={main} tabIndex={-1}>
        <Confirmations />
        {page ? (
          <Suspense fallback={<Loading what="the page" />}>
            <page.component route={route} />
          </Suspense>
        ) : (
          <section className="page">
            <h1>No such page</h1>
            <p>
              There is no page “{route.page}”. <a href={href(DEFAULT_PAGE)}>Go to the experiments</a>.
            </p>
          </section>
        )}
      </main>
    </div>
  );
}
