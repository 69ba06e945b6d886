// The answers of the API the pages read (see docs of the dashboard API; only the fields used here).

export type CheckpointEntry = {
  id: string;
  path: string;
  status: string;
  node_count: number;
  review_score: number | null;
  best_scientific_score?: number;
  reproducibility_score?: number | null;
  mtime: string;
  goal: string | null;
  cost: { usd: number; tokens: number } | null;
};

export type SubExperiment = { run_id: string; parent_run_id: string | null };

export type ActiveCheckpoint = { id: string | null; path: string | null };

export type DeleteAnswer = { ok: true; deleted: string; memory?: { agent: string; deleted: boolean; warning?: string } };

export type State = {
  status_label: string;
  checkpoint_id?: string;
  status?: string;
  phase?: string;
  nodes?: { total: number; completed: number; running: number; failed: number; pending: number };
  model?: { provider: string; model: string };
  cost?: { usd: number; tokens: number; calls: number };
  best?: { id: string; score: number; metric: string | null; value: number | null } | null;
};

export type Metrics = { cpu: { percent: number; cores: number }; memory: { percent: number; total_bytes: number }; disk: { percent: number; free_bytes: number } };
export type Gpus = { available: boolean; gpus: { index: number; name: string; utilization_pct: number | null }[]; reason?: string };

export type HeldChange = { id: string; origin: string; method: string; path: string; keys: string[]; at: string };
