import { readdirSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { MAX_NODE_REPORT_BYTES, NODE_REPORT_FILE } from '../../core/checkpoint/node-report.ts';
import { InputError, NotFoundError } from '../../core/errors.ts';
import { isSafeId, isWithin, readTextOrNull, statOrNull } from '../../core/paths.ts';
import { parseLine } from '../../core/json-object.ts';
import { printable } from '../../core/text.ts';
import { type ArtifactStatus, checkArtifacts } from './artifacts.ts';
import type { MemoryEntry } from './entries.ts';
import { NodeReport, reportArtifacts } from './node-report.ts';

export type AuditResult = {
  /** where the reference was recorded: a node's node_report.json, or a memory entry */
  source: 'node_report' | 'memory';
  run_id: string;
  node_id: string;
  entry_id: string | null;
  path: string;
  role: string;
  recorded_sha256: string | null;
  current_sha256: string | null;
  status: ArtifactStatus;
};
export type AuditSummary = Record<ArtifactStatus | 'total' | 'node_reports' | 'memory_entries', number>;

/**
 * Checks the recorded provenance of an experiments tree against disk: every artifact each
 * node_report.json (experiments_root/<run>/<node>/) points at, and every artifact of the given memory
 * entries whose work directory lies in the audited part of the tree. A report that cannot be read
 * as one is a result of status `invalid`.
 */
export async function auditExperiments(experimentsRoot: string, runId: string | null, entries: MemoryEntry[]): Promise<{ summary: AuditSummary; results: AuditResult[] }> {
  const scope = auditScope(experimentsRoot, runId);
  const results: AuditResult[] = [];
  let reports = 0;
  for (const run of runId ? [runId] : subdirs(experimentsRoot)) {
    for (const node of subdirs(join(experimentsRoot, run))) {
      const nodeDir = join(experimentsRoot, run, node);
      const report = readReport(join(nodeDir, NODE_REPORT_FILE));
      if (report === undefined) continue;
      reports++;
      const base = { source: 'node_report' as const, run_id: run, node_id: node, entry_id: null };
      if (report === null) {
        results.push({ ...base, path: NODE_REPORT_FILE, role: 'report', recorded_sha256: null, current_sha256: null, status: 'invalid' });
        continue;
      }
      for (const c of await checkArtifacts(await reportArtifacts(report, nodeDir, false), nodeDir)) {
        results.push({ ...base, node_id: report.node_id, path: c.path, role: c.role, recorded_sha256: c.sha256, current_sha256: c.current_sha256, status: c.status });
      }
    }
  }
  const audited = entries.filter((e) => typeof e.metadata.work_dir === 'string' && isAbsolute(e.metadata.work_dir) && isWithin(scope, e.metadata.work_dir));
  for (const e of audited) {
    const workDir = e.metadata.work_dir as string;
    const run = relative(experimentsRoot, workDir).split(sep)[0] ?? '';
    for (const c of await checkArtifacts(e.metadata.artifact_refs, workDir)) {
      results.push({ source: 'memory', run_id: run, node_id: e.node_id, entry_id: e.entry_id, path: c.path, role: c.role, recorded_sha256: c.sha256, current_sha256: c.current_sha256, status: c.status });
    }
  }
  return { summary: summarize(results, reports, audited.length), results };
}

/** The audited directory: the experiments root, or one run in it. */
function auditScope(root: string, runId: string | null): string {
  if (!isAbsolute(root)) throw new InputError(`experiments_root '${printable(root)}' is not an absolute path`);
  if (!statOrNull(root)?.isDirectory()) throw new NotFoundError(`experiments_root ${root} is not a directory`);
  if (runId === null) return root;
  if (!isSafeId(runId)) throw new InputError(`run_id '${printable(runId)}' is not valid`, 'ids are directory names: letters, digits, . _ -');
  if (!statOrNull(join(root, runId))?.isDirectory()) throw new NotFoundError(`unknown run ${runId}`, `no directory ${join(root, runId)}`);
  return join(root, runId);
}

function summarize(results: AuditResult[], reports: number, memoryEntries: number): AuditSummary {
  const summary: AuditSummary = { total: results.length, verified: 0, mismatch: 0, missing: 0, unhashed: 0, invalid: 0, node_reports: reports, memory_entries: memoryEntries };
  for (const r of results) summary[r.status]++;
  return summary;
}

/** The report, null when it is not one (unreadable, too large, not JSON, wrong shape), undefined when absent. */
function readReport(file: string): NodeReport | null | undefined {
  const st = statOrNull(file);
  if (st === null) return undefined;
  if (!st.isFile() || st.size > MAX_NODE_REPORT_BYTES) return null;
  const value = parseLine(readTextOrNull(file) ?? '');
  return Value.Check(NodeReport, value) ? value : null;
}

/** Directory names in `dir`, sorted; symlinks are not followed out of the tree. */
function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && isSafeId(d.name))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}
