import { NotBuilt } from '../components/NotBuilt.tsx';

/** The page component of a page not built yet. */
export function notBuilt(title: string, instead: string) {
  return function NotBuiltPage() {
    return <NotBuilt title={title} instead={instead} />;
  };
}
