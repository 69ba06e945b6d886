import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { NODE_REPORT_FILE } from '../core/checkpoint/node-report.ts';
import { oneLine } from '../core/errors.ts';
import type { NodeRecord } from '../schema/checkpoint.ts';
import type { FilesChanged } from './files-diff.ts';
import type { MachineInfo } from './machine.ts';

/** The node fields a report repeats (a SearchNode, or a node record read back from tree.json). */
export type ReportNode = Pick<NodeRecord, 'id' | 'parent_id' | 'ancestor_ids' | 'label' | 'raw_label' | 'depth' | 'original_direction'>;

export type ReportInput = {
  node: ReportNode;
  status: string;
  startedAt: string | null;
  completedAt: string | null;
  /** null when the parent's files cannot be compared any more */
  filesChanged: FilesChanged | null;
  workDir: string;
  whatWasDone: string | null;
  metrics: Record<string, unknown>;
  parentScore: number | null;
  evaluatorReason: string | null;
  axisRationales: Record<string, string>;
  /** commands the node's exec tools ran; null when unknown */
  commands: string[] | null;
  toolCounts: Record<string, number> | null;
  migrationSource: 'fresh' | 'auto';
  executor: string | null;
  /** the container the node's commands ran in; null when none */
  container?: { runtime: string; image: string; digest: string | null } | null;
  machine: MachineInfo | null;
  slurm: { job_id: string | null; partition: string | null; nodelist: string | null };
  /** the PBS or LSF jobs the node's commands ran as (one per command); null on other executors */
  batchJobIds?: string[] | null;
};

const SOURCE_EXTS = new Set(['.py', '.c', '.h', '.cc', '.cpp', '.hpp', '.cu', '.f90', '.f', '.rs', '.go', '.js', '.ts', '.sh', '.java', '.jl', '.r', '.m', '.mk', '.cmake', '.md', '.yaml', '.yml', '.toml']);
const ROLES: [RegExp, string][] = [
  [/\.(png|jpe?g|svg|pdf|gif|eps)$/i, 'figure'],
  [/\.(log|out|err)$|^(stdout|stderr)\.txt$/i, 'log'],
  [/\.(csv|tsv|json|jsonl|txt|dat|npy|npz|h5|hdf5|parquet|pkl)$/i, 'data_output'],
  [/\.(o|so|a|bin|exe)$|^[^.]+$/i, 'binary'],
];

/** The node_report.json record (schema_version 1); null marks what is not known. */
export function buildReport(r: ReportInput): Record<string, unknown> {
  const axisScores = (r.metrics._axis_scores ?? {}) as Record<string, unknown>;
  const axes = Object.entries(axisScores).filter((e): e is [string, number] => typeof e[1] === 'number');
  const rationale = (axis: string, score: number) => `${axis} (${score.toFixed(2)}): ${r.axisRationales[axis] ?? 'no rationale given'}`;
  const score = typeof r.metrics._scientific_score === 'number' ? r.metrics._scientific_score : null;
  return {
    schema_version: 1,
    node_id: r.node.id,
    parent_id: r.node.parent_id ?? null,
    ancestor_ids: r.node.ancestor_ids ?? [],
    label: r.node.label ?? null,
    raw_label: r.node.raw_label ?? null,
    depth: r.node.depth ?? null,
    status: r.status,
    started_at: r.startedAt,
    completed_at: r.completedAt,
    original_direction: r.node.original_direction ?? null,
    files_changed: r.filesChanged,
    what_was_done: r.whatWasDone,
    delta_vs_parent: delta(r.filesChanged, score, r.parentScore, r.node.parent_id ?? null),
    metrics: r.metrics,
    self_assessment: {
      succeeded: r.status === 'success',
      headline: r.whatWasDone ? (r.whatWasDone.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 200) : null,
      concerns: axes.filter(([, s]) => s < 0.4).map(([a, s]) => rationale(a, s)),
    },
    next_steps_hints: axes.filter(([, s]) => s >= 0.4 && s < 0.7).map(([a, s]) => rationale(a, s)),
    build_command: buildCommand(r.workDir),
    run_command: runCommand(r.workDir, r.commands),
    artifacts: r.filesChanged ? artifacts(r.workDir, r.filesChanged) : [],
    evaluator_reason: r.evaluatorReason,
    trace_log_summary: r.toolCounts === null ? null : traceSummary(r.toolCounts),
    migration_source: r.migrationSource,
    executor: r.executor,
    container: r.container ?? null,
    hostname: r.machine?.hostname ?? null,
    slurm_job_id: r.slurm.job_id,
    slurm_partition: r.slurm.partition,
    slurm_nodelist: r.slurm.nodelist,
    batch_job_ids: r.batchJobIds ?? null,
    cpu_info: r.machine?.cpu_info ?? null,
    mem_total_kb: r.machine?.mem_total_kb ?? null,
    compilers: r.machine?.compilers ?? null,
  };
}

/**
 * Writes the report atomically into the work directory; when it cannot be built, a stub with
 * status "error" and the reason is written instead, so a reader always finds a record. Never
 * throws: a report that cannot be written at all comes back as `{path: null, error}`.
 */
export function writeReport(workDir: string, nodeId: string, build: () => Record<string, unknown>): { path: string | null; error: string | null } {
  const path = join(workDir, NODE_REPORT_FILE);
  let error: string | null = null;
  let report: Record<string, unknown>;
  try {
    report = build();
  } catch (err) {
    error = `node report could not be built: ${oneLine(err)}`;
    report = { schema_version: 1, node_id: nodeId, status: 'error', error };
  }
  try {
    writeJsonAtomic(path, report);
  } catch (err) {
    return { path: null, error: `node report could not be written to ${path}: ${oneLine(err)}` };
  }
  return { path, error };
}

function delta(fc: FilesChanged | null, score: number | null, parentScore: number | null, parentId: string | null): string | null {
  if (parentId === null) return 'root node: no parent to compare with';
  const parts: string[] = [];
  if (fc) parts.push(`${fc.added.length} file(s) added, ${fc.modified.length} modified, ${fc.deleted.length} deleted vs the parent`);
  if (score !== null && parentScore !== null) parts.push(`score ${parentScore.toFixed(3)} → ${score.toFixed(3)}`);
  return parts.length ? parts.join('; ') : null;
}

function artifacts(workDir: string, fc: FilesChanged): Record<string, unknown>[] {
  const files = [...fc.added.map((f) => ({ path: f.path, sha256: f.sha256 })), ...fc.modified.map((f) => ({ path: f.path, sha256: f.sha256_after }))];
  return files
    .filter((f) => !SOURCE_EXTS.has(extname(f.path).toLowerCase()) && !/(^|\/)Makefile$/i.test(f.path))
    .map((f) => {
      const name = f.path.slice(f.path.lastIndexOf('/') + 1);
      const size = statSync(join(workDir, f.path), { throwIfNoEntry: false })?.size;
      return { filename: f.path, role: ROLES.find(([re]) => re.test(name))?.[1] ?? 'unknown', sha256: f.sha256, ...(size === undefined ? {} : { size }) };
    });
}

/** Lines of the work directory's scripts (run_job.sh, Makefile, other *.sh), first lines first. */
function scriptLines(workDir: string): { file: string; line: string }[] {
  let names: string[];
  try {
    names = readdirSync(workDir).sort();
  } catch {
    return [];
  }
  const scripts = ['run_job.sh', 'Makefile', 'makefile', ...names.filter((n) => n.endsWith('.sh') && n !== 'run_job.sh')].filter((n) => names.includes(n));
  return scripts.flatMap((file) => {
    try {
      return readFileSync(join(workDir, file), 'utf8').split('\n').map((line) => ({ file, line: line.trim() }));
    } catch {
      return [];
    }
  });
}

function buildCommand(workDir: string): string | null {
  const lines = scriptLines(workDir);
  if (lines.some((l) => /^makefile$/i.test(l.file))) return 'make';
  return lines.find((l) => /^(gcc|g\+\+|clang\+?\+?|nvcc|mpicc|mpicxx|gfortran|cmake|make)\b/.test(l.line))?.line ?? null;
}

function runCommand(workDir: string, commands: string[] | null): string | null {
  const fromScript = scriptLines(workDir).find((l) => /^(srun|mpirun|mpiexec|python3?|\.\/)\S*/.test(l.line))?.line;
  return fromScript ?? commands?.at(-1) ?? null;
}

function traceSummary(counts: Record<string, number>): string {
  const entries = Object.entries(counts);
  const total = entries.reduce((s, [, n]) => s + n, 0);
  return total === 0 ? 'no tool calls' : `${total} tool call(s): ${entries.map(([t, n]) => `${t}×${n}`).join(', ')}`;
}
