import { useCallback, useState } from 'react';
import { getJson } from '../../api.ts';
import { useEvery } from '../../use-api.ts';
import type { Gpus, Metrics } from './types.ts';

/** How often the machine is sampled while the page is open, and how many samples the charts keep (six minutes). */
export const SAMPLE_MS = 3000;
const KEEP = 120;

/** One reading of the machine: seconds since the epoch, CPU and memory in percent, each GPU's utilisation. */
export type Sample = { at: number; cpu: number; memory: number; gpus: (number | null)[] };

export type Samples = { samples: Sample[]; latest: { metrics: Metrics; gpus: Gpus } | null; error: string | null };

/** Samples /api/resource-metrics and /api/gpu-monitor every SAMPLE_MS while mounted; the readings are kept for the charts. */
export function useSamples(): Samples {
  const [samples, setSamples] = useState<Sample[]>([]);
  const [latest, setLatest] = useState<Samples['latest']>(null);
  const [error, setError] = useState<string | null>(null);
  const sample = useCallback(() => {
    Promise.all([getJson<Metrics>('/api/resource-metrics'), getJson<Gpus>('/api/gpu-monitor')])
      .then(([metrics, gpus]) => {
        const reading: Sample = { at: Date.now() / 1000, cpu: metrics.cpu.percent, memory: metrics.memory.percent, gpus: gpus.gpus.map((g) => g.utilization_pct) };
        setSamples((s) => [...s.slice(-(KEEP - 1)), reading]);
        setLatest({ metrics, gpus });
        setError(null);
      })
      .catch((err: unknown) => setError((err as Error).message));
  }, []);
  useEvery(SAMPLE_MS, sample);
  return { samples, latest, error };
}
