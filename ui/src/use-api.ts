import { useCallback, useEffect, useState } from 'react';
import { getJson } from './api.ts';

export type Loaded<T> = { data: T | undefined; error: string | null; loading: boolean; reload: () => void };

/**
 * GETs `path` on mount, on reload() and every `every` ms when given; the last answer stays shown
 * while a reload is under way.
 */
export function useApi<T>(path: string, { every }: { every?: number } = {}): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let current = true;
    setLoading(true);
    getJson<T>(path)
      .then((body) => {
        if (!current) return;
        setData(body);
        setError(null);
      })
      .catch((err: unknown) => current && setError(err instanceof Error ? err.message : String(err)))
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
  return { data, error, loading, reload };
}

/** Calls `task` now and every `ms` while mounted. */
export function useEvery(ms: number, task: () => void): void {
  useEffect(() => {
    task();
    const timer = setInterval(task, ms);
    return () => clearInterval(timer);
  }, [ms, task]);
}
