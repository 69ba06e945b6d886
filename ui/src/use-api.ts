import { useCallback, useEffect, useRef, useState } from 'react';
import { getJson, takeArrived } from './api.ts';

export type Loaded<T> = { data: T | undefined; error: string | null; loading: boolean; reload: () => void };

/** An answer, or a refusal, and the path it is for. */
type Answer<T> = { path: string; data?: T; error: string | null };

/**
 * GETs `path` on mount, on reload() and every `every` ms when given; the last answer stays shown
 * while a reload of the same path is under way, never under another path.
 */
export function useApi<T>(path: string, { every }: { every?: number } = {}): Loaded<T> {
  // an answer asked for early (main.tsx) that came already: the first draw shows it, and it is not asked for again
  const [arrived] = useState(() => takeArrived<T>(path));
  const [answer, setAnswer] = useState<Answer<T> | null>(arrived && { path, data: arrived.data, error: null });
  const [loading, setLoading] = useState(arrived === null);
  const [tick, setTick] = useState(0);
  // the first fetch of the path the early answer is for is not made; any other is
  const skip = useRef(arrived ? path : null);
  useEffect(() => {
    const skipped = skip.current === path && tick === 0;
    skip.current = null;
    if (skipped) return;
    let current = true;
    setLoading(true);
    getJson<T>(path)
      .then((data) => current && setAnswer({ path, data, error: null }))
      .catch((err: unknown) => current && setAnswer((last) => ({ path, data: last?.path === path ? last.data : undefined, error: err instanceof Error ? err.message : String(err) })))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [path, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    if (every === undefined) return;
    const timer = setInterval(reload, every);
    return () => clearInterval(timer);
  }, [every, reload]);
  const mine = answer?.path === path ? answer : null;
  return { data: mine?.data, error: mine?.error ?? null, loading: loading || mine === null, reload };
}

/** Calls `task` now and every `ms` while mounted. */
export function useEvery(ms: number, task: () => void): void {
  useEffect(() => {
    task();
    const timer = setInterval(task, ms);
    return () => clearInterval(timer);
  }, [ms, task]);
}
