import { PAGES } from '../pages/index.ts';
import { href } from '../route.ts';

/** The navigation: a sidebar, a wrapped bar on narrow screens. */
export function Nav({ current }: { current: string | null }) {
  return (
    <nav className="nav" aria-label="Pages">
      <a className="brand" href={href('experiments')}>
        <img src="/static/logo.svg" alt="" width="24" height="24" />
        svc
      </a>
      <ul>
        {PAGES.map((p) => (
          <li key={p.id}>
            <a href={href(p.id)} aria-current={p.id === current ? 'page' : undefined}>
              {p.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
