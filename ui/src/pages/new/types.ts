// The answers the New experiment wizard reads (src/server/routes: models, settings, sandbox, uploads, runs).

export type ModelRole = { role: string; model: string; backend: string; baseUrl: string | null; why: string };
export type LocalModel = { name: string; size_bytes: number | null; parameter_size: string | null };
export type ModelCatalogue = {
  roles: ModelRole[];
  local: { url: string; reachable: true; version: string | null; models: LocalModel[] } | { url: string; reachable: false; error: string };
  providers: { id: string; key_variable: string; key_present: boolean; models: string[]; models_from: string }[];
  openai_compatible: { base_url: string | null; key_present: boolean };
};

export type Profiles = { profiles: { name: string; values: Record<string, string | number> }[]; selected: string | null };

export type SchedulerDetection = {
  local: true;
  slurm: { found: boolean; error?: string };
  pbs: { found: boolean };
  lsf: { found: boolean };
};

export type SlurmPartition = { name: string; default: boolean; available: string; timelimit: string; nodes: number; gres: string[] };

export type ContainerInfo = {
  mode: string;
  image: string | null;
  runtime: string | null;
  found: boolean;
  version: string | null;
  error?: string;
};

/** The settings the preview shows (GET /api/settings has many more). */
export type RunSettings = { slurm_walltime?: string | null; slurm_cpus?: number | null; slurm_gpus?: number | null };

export type GoalTurn = { role: 'user' | 'assistant'; content: string };
export type GoalAnswer = { reply: string; goal: string; model: string };

export type SavedUpload = { name: string; path: string; size: number };
export type UploadAnswer = { ok: true; files: SavedUpload[] };

export type LaunchAnswer = { ok: true; pid: number; checkpoint_path: string; run_id: string };
