// The answers the Monitor page reads, as far as it uses them (see src/server/routes/state.ts and runs.ts).

export type StageStatus = 'done' | 'pending' | 'unknown';

export type RunState = {
  status_label: string;
  is_running: boolean;
  exit_code: number | null;
  checkpoint_id?: string;
  status?: string;
  phase?: 'idle' | 'idea' | 'bfts' | 'paper' | 'review';
  nodes?: { total: number; completed: number; running: number; failed: number; pending: number };
  model?: { provider: string; model: string };
  cost?: { usd: number; tokens: number; calls: number };
  best?: { id: string; score: number; metric: string | null; value: number | null } | null;
  /** the workflow's enabled post-search stages, in order */
  stages?: { stage: string; status: StageStatus }[];
};

export type Metrics = {
  cpu: { percent: number; cores: number };
  memory: { percent: number; used_bytes: number; total_bytes: number };
  disk: { percent: number; free_bytes: number };
};

export type Gpus =
  | { available: true; gpus: { index: number; name: string; utilization_pct: number | null; memory_used_mb: number | null; memory_total_mb: number | null }[] }
  | { available: false; gpus: []; reason: string };

/** GET /api/workflow/flow: the stages of both lists, for the run-stage picker. */
export type Flow = { nodes: { id: string; stage: string; list: 'bfts_pipeline' | 'pipeline'; enabled: boolean }[] };

export type StopAnswer = { ok: true; pid: number; signal: string; exit_code: number | null };
export type StageAnswer = { ok: true; pid: number; stage: string };
