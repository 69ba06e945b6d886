// The answers of the benchmark API (/api/bench/) this page reads; only the fields it uses.

export type LicenseAssessment = {
  license: string;
  permissive: boolean;
  modifiable: boolean;
  redistributable: boolean;
  non_commercial: boolean;
  usable: boolean;
  note: string;
};

export const SOURCE_TYPES = ['arxiv', 'doi', 'upload', 'local'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export type Paper = {
  paper_id: string;
  title: string;
  authors: string[];
  venue: string;
  year: number | null;
  source_type: SourceType;
  source: string;
  artifact_url: string;
  license: string;
  license_assessment: LicenseAssessment;
  imported_at: string;
  registry_dir: string;
};

export type PapersAnswer = { papers: Paper[] };

/** An import refused: a duplicate carries the paper it clashes with. */
export type ImportRefusal = { error: string; existing?: Paper };

export type Preprint = { title: string; authors: string[]; year: number | null; license: string };

export type Uploaded = { ok: true; files: { name: string; path: string; size: number }[] };

export type Part = { wall_time_sec: number; cost_usd: number };
export type CostEstimate = { wall_time_sec: number; llm_cost_usd: number; breakdown: { rubric: Part; reproduce: Part; judge: Part } };
export type DryRun = { dry_run: true; estimated_cost: CostEstimate; papers: number; estimated_total_walltime_sec: number; estimated_total_cost_usd: number };
export type RunAnswer = { dry_run: false; job_ids: string[]; estimated_cost: CostEstimate };

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';

export type Job = {
  job_id: string;
  paper_id: string;
  status: JobStatus;
  current_stage: string;
  progress: number;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  configs: { rubric: Record<string, unknown>; reproduce: Record<string, unknown>; judge: Record<string, unknown> };
  error: string | null;
};

export type JobsAnswer = { jobs: Job[] };

export type LogLine = { ts: string; level: string; msg: string };

export type LeafGrade = { leaf_id: string; requirements: string; task_category: string | null; weight: number; score: number; explanation: string; judge_error?: string };

export type Grade = {
  ors_score: number;
  leaf_grades: LeafGrade[];
  judge_model: string;
  n_runs: number;
  code_only: boolean;
  leaves_total: number;
  leaves_passed: number;
  negative_control: { empty: number | null; boilerplate: number | null; passed: boolean | null; skipped?: true };
  degraded: boolean;
  degraded_reason?: string;
};

export type JobResults = { run_dir: string; ors_score: number; leaves: number; grade: Grade | null; reproduce_run: { exit_code?: number; timed_out?: boolean; wall_time_sec?: number; error?: string } | null };

export type Report = { download_urls: Record<string, string>; problems?: Record<string, string> };
