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
  /** the run this one is a sub-experiment of */
  parent_run_id?: string | null;
};

export type ActiveCheckpoint = { id: string | null; path: string | null };

export type DeleteAnswer = { ok: true; deleted: string; memory?: { agent: string; deleted: boolean; warning?: string } };

export type HeldChange = { id: string; origin: string; method: string; path: string; keys: string[]; at: string };

export type NodeSummary = { id: string; name?: string; label?: string; status?: string };
export type CheckpointSummary = { id: string; nodes_list?: NodeSummary[] };

export type MemoryEntry = { kind?: string; node_id?: string; text?: string; ts?: number; entry_id?: string } & Record<string, unknown>;
export type CheckpointMemory = {
  source: string | null;
  entries: MemoryEntry[];
  truncated: boolean;
  problems: string[];
  backend: { url: string; reachable: boolean; agent_id: string | null; error?: string };
};
export type AccessEvent = { ts?: number; node_id?: string; op?: string; collection?: string; entry_id?: string } & Record<string, unknown>;
export type MemoryAccess = { source: string | null; events: AccessEvent[]; truncated: boolean };
