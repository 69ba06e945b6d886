// The answers the Tree page reads (only the fields it shows).

/** A node of the tree file as the summary outlines it (?nodes=outline): enough to draw it. */
export type NodeOutline = {
  id: string;
  parent_id?: string | null;
  status?: string;
  label?: string;
  name?: string;
  metrics?: Record<string, unknown>;
};

/** A node's whole record (/api/nodes/<run>/<node>). */
export type NodeRecord = NodeOutline & {
  has_real_data?: boolean;
  eval_summary?: string | null;
  error_log?: string | null;
  trace_log?: string[];
};

export type TreeSummary = {
  id: string;
  status: string;
  goal: string | null;
  best: { id: string; score: number; metric: string | null; value: number | null } | null;
  nodes_list?: NodeOutline[];
  /** where each node with a readable report ran, by node id: the nodes that have a report */
  placements: Record<string, unknown>;
  problems: string[];
};

export type FilesChanged = {
  added: { path: string }[];
  modified: { path: string }[];
  deleted: string[];
};

/** node_report.json of a node's work directory (schema_version 1); any field may be null or absent. */
export type NodeReport = {
  status?: string;
  started_at?: string | null;
  completed_at?: string | null;
  what_was_done?: string | null;
  delta_vs_parent?: string | null;
  evaluator_reason?: string | null;
  self_assessment?: { headline?: string | null; concerns?: string[] } | null;
  next_steps_hints?: string[];
  build_command?: string | null;
  run_command?: string | null;
  files_changed?: FilesChanged | null;
  executor?: string | null;
  hostname?: string | null;
  error?: string;
};

/** A directory of /filetree. */
export type FileTreeEntry = { name: string; path: string; type: 'dir' | 'file'; size: number; children?: FileTreeEntry[]; truncated?: true };

/** One file of /filecontent: its content, or why it could not be read. */
export type BatchEntry = { encoding: 'utf8' | 'base64'; content: string; size: number } | { error: string };
export type FileBatch = { files: Record<string, BatchEntry> };
