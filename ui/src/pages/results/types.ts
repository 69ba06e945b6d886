// The answers of the API the Results page reads (only the fields it uses).

/** GET /api/checkpoint/<id>/summary: the run's report files as written, absent when missing. */
export type ResultsSummary = {
  id: string;
  path: string;
  run_id: string | null;
  review?: unknown;
  reproducibility_report?: unknown;
  ors?: { grade?: unknown };
  paper?: { tex_path: string | null; pdf_path: string | null; title: string | null; pages: number | null };
  problems: string[];
};

export type ListedFile = { path: string; size: number; type: 'text' | 'image' | 'pdf' | 'binary'; mtime: number };
/** GET /api/checkpoint/<id>/files */
export type FileList = { files: ListedFile[]; truncated: boolean };

/** GET /api/checkpoint/<id>/filetree */
export type TreeNode = { name: string; path: string; type: 'dir' | 'file'; size: number; children?: TreeNode[]; truncated?: true };

/** GET /api/checkpoint/<id>/file?path= */
export type FileContent = { path: string; size: number; encoding: 'utf8' | 'base64'; content: string };

export type SaveAnswer = { ok: true; path: string; size: number };
export type UploadAnswer = { ok: true; files: { name: string; path: string; size: number }[] };
/** POST /api/checkpoint/compile: 200 with the PDF, 422 with TeX's error; both with the log's tail. */
export type CompileAnswer = { ok?: true; pdf?: string; error?: string; log_tail?: string[] };

/** One finding of the claim gate. */
export type Finding = { type: string; message: string; key?: string; claimed?: number; evidence?: number[]; where?: string };
/** evaluation/claim_evidence_hard_gate_{draft,final}.json */
export type ClaimGateReport = {
  phase: string;
  policy?: { mode?: string };
  status: string;
  should_block: boolean;
  reason?: string;
  tex_path?: string | null;
  errors: Finding[];
  warnings: Finding[];
  metrics?: Record<string, unknown>;
};

/** One leaf of ors_grade.json's leaf_grades. */
export type LeafGrade = { leaf_id: string; requirements: string; task_category: string | null; weight: number; score: number; runs: number[]; explanation: string; judge_error?: string };

/** One record of lineage_decisions.jsonl. */
export type LineageDecision = {
  ts?: number;
  ts_iso?: string;
  trigger?: string;
  executed?: boolean;
  state?: { active_idea_title?: string; nodes_explored?: number; budget_remaining?: number };
  decision?: { action?: string; target_idea_index?: number | null; rationale?: string };
};
