import { Value } from '@sinclair/typebox/value';
import { join } from 'node:path';
import { ConflictError, InvalidRecordError } from '../../core/errors.ts';
import { readRange, resolveInside, statOrNull } from '../../core/paths.ts';
import { isMapping } from '../../core/values.ts';
import { readRubric } from '../../replicate/rubric.ts';
import { REPRODUCE_LOG, submissionDir } from '../../reproduce/submission.ts';
import type { JobResults, JobSnapshot, ManifestEntry } from '../../schema/bench-api.ts';
import type { RubricNode } from '../../schema/ors-rubric.ts';
import { checked, GradeRecord, type LeafGradeRecord, RunRecord } from './records.ts';

export const RUBRIC_FILE = 'rubric.json';
export const SANDBOX_DIR = 'repro_sandbox';
const LOG_TAIL_LINES = 60;
const LOG_TAIL_BYTES = 16 * 1024;
const LOG_LINE_CHARS = 300;

/** A rubric node with its grade: a leaf's own, an inner node's the weighted mean of its graded children; null when none of it was graded. */
export type ScoredNode = { node: RubricNode; depth: number; score: number | null; grade: LeafGradeRecord | null };
export type Axis = { node: RubricNode; score: number | null; leaves: ScoredNode[] };

/** Everything a report shows, read from the run's files and checked. */
export type ReportData = {
  job: JobSnapshot;
  paper: ManifestEntry;
  grade: GradeRecord;
  rubricSha256: string;
  /** every node of the rubric, depth first */
  nodes: ScoredNode[];
  /** the root's children, each with the leaves below it */
  axes: Axis[];
  /** null when the reproduction left no run record; runError is then what it reported instead, if anything */
  run: RunRecord | null;
  runError: string | null;
  /** the primitive fields of the stage records, as they are */
  build: [string, string][];
  rubricMeta: [string, string][];
  sandboxDir: string;
  log: { path: string; lines: string[]; truncated: boolean } | null;
};

/**
 * The report's data: the grade and run record from results.json, the rubric tree and the end of
 * reproduce.log from the run directory. A job that is not completed, or results without a valid
 * grade, are refused: a report never shows a score that was not given.
 */
export function harvest(job: JobSnapshot, paper: ManifestEntry, results: JobResults, runDir: string): ReportData {
  if (job.status !== 'completed') throw new ConflictError(`job ${job.job_id} is ${job.status}: a report is made of a completed job`, 'wait until the job has completed');
  if (!isMapping(results.grade)) throw new InvalidRecordError(`the results of job ${job.job_id} hold no grade`, 'grade the run again: only a graded job has a report');
  const grade = checked(GradeRecord, results.grade, `the grade of job ${job.job_id}`, 'grade the run again');
  const rubric = readRubric(resolveInside(runDir, RUBRIC_FILE, 'rubric'));
  const { nodes, axes } = scoreTree(rubric.root, grade.leaf_grades);
  const sandboxDir = resolveInside(runDir, SANDBOX_DIR, 'sandbox');
  return {
    job,
    paper,
    grade,
    rubricSha256: rubric.sha256,
    nodes,
    axes,
    // the reproduction stage may fail without failing the job: its error stands in for the record
    run: Value.Check(RunRecord, results.reproduce_run) ? results.reproduce_run : null,
    runError: isMapping(results.reproduce_run) && typeof results.reproduce_run.error === 'string' ? results.reproduce_run.error : null,
    build: primitives(results.reproduce_build),
    // the digest has its own row
    rubricMeta: primitives(results.rubric_manifest).filter(([k]) => k !== 'rubric_sha256'),
    sandboxDir,
    log: logTail(runDir, sandboxDir),
  };
}

function scoreTree(root: RubricNode, grades: LeafGradeRecord[]): { nodes: ScoredNode[]; axes: Axis[] } {
  // leaves are graded in tree order; an id the rubric repeats is matched to its grades in turn
  const byId = new Map<string, LeafGradeRecord[]>();
  for (const g of grades) byId.set(g.leaf_id, [...(byId.get(g.leaf_id) ?? []), g]);
  const nodes: ScoredNode[] = [];
  const visit = (node: RubricNode, depth: number): ScoredNode => {
    const entry: ScoredNode = { node, depth, score: null, grade: null };
    nodes.push(entry);
    if (node.sub_tasks.length === 0) {
      entry.grade = byId.get(node.id)?.shift() ?? null;
      entry.score = entry.grade?.score ?? null;
      return entry;
    }
    let weights = 0;
    let sum = 0;
    for (const child of node.sub_tasks) {
      const s = visit(child, depth + 1).score;
      if (s === null) continue;
      weights += child.weight;
      sum += child.weight * s;
    }
    entry.score = weights > 0 ? sum / weights : null;
    return entry;
  };
  visit(root, 0);
  // an axis's leaves are the leaves that follow it in depth-first order, up to the next axis
  const axes: Axis[] = [];
  for (const n of nodes) {
    if (n.depth === 1 || (n.depth === 0 && root.sub_tasks.length === 0)) axes.push({ node: n.node, score: n.score, leaves: [] });
    if (n.node.sub_tasks.length === 0) axes[axes.length - 1]?.leaves.push(n);
  }
  return { nodes, axes };
}

/** A record's fields that are text, numbers or booleans, in its order; nested values are left to the record itself. */
function primitives(v: unknown): [string, string][] {
  if (!isMapping(v)) return [];
  return Object.entries(v).flatMap(([k, x]) => (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean' ? [[k, String(x)] as [string, string]] : []));
}

/** The last lines of the submission's reproduce.log, control characters removed, long lines cut. */
function logTail(runDir: string, sandboxDir: string): ReportData['log'] {
  if (!statOrNull(sandboxDir)?.isDirectory()) return null;
  // the log is the agent's output: a link out of the run directory is not followed
  const path = resolveInside(runDir, join(submissionDir(sandboxDir), REPRODUCE_LOG), 'reproduce.log');
  const st = statOrNull(path);
  if (!st?.isFile()) return null;
  const start = Math.max(0, st.size - LOG_TAIL_BYTES);
  const text = readRange(path, start, st.size - start).toString('utf8');
  let lines = text.split(/\r?\n/);
  if (start > 0) lines = lines.slice(1);
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  const truncated = start > 0 || lines.length > LOG_TAIL_LINES;
  const clean = (l: string) => {
    const chars = [...l.replace(/\t/g, '    ').replace(/[\u0000-\u001F\u007F-\u009F\uFFFE\uFFFF]/g, '')];
    return chars.length > LOG_LINE_CHARS ? `${chars.slice(0, LOG_LINE_CHARS).join('')}…` : chars.join('');
  };
  return { path, lines: lines.slice(-LOG_TAIL_LINES).map(clean), truncated };
}
