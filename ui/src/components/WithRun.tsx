import type { ReactNode } from 'react';
import type { ActiveCheckpoint } from '../types.ts';
import type { Loaded } from '../use-api.ts';
import { ErrorMessage, Loading } from './states.tsx';

type Props = {
  /** The run the page's address names, if any. */
  given: string | undefined;
  active: Loaded<ActiveCheckpoint>;
  /** What to say when the address names no run and none is active. */
  none: ReactNode;
  children: (run: string) => ReactNode;
};

/** The run a page shows: the one its address names, else the active checkpoint, once it is known. */
export function WithRun({ given, active, none, children }: Props) {
  if (given) return children(given);
  if (active.error) return <ErrorMessage message={active.error} retry={active.reload} />;
  if (!active.data) return <Loading what="the active checkpoint" />;
  if (!active.data.id) return <p className="state empty">{none}</p>;
  return children(active.data.id);
}
