/**
 * The Slurm jobs a node's agent submits itself (hpc-skill's tools) belong to the node: their
 * comment names the run and the node, `svc:<checkpoint directory>/<node id>`, and they are
 * cancelled when the node ends and when the run ends. The scheduler is their only record, so the
 * jobs of a run killed outright are found all the same: its resume cancels them by their comment.
 * A job submitted outside a node has no comment of ours and is never cancelled.
 */
import { appendFileSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { oneLine, SvcError } from '../core/errors.ts';
import { type CommandRunner, systemRunner } from './slurm-runner.ts';

const PREFIX = 'svc:';

/**
 * The checkpoint's note of the nodes that submitted jobs, a node id a line, written before each
 * submission: a run none of whose nodes ever submitted one has nothing to cancel, and asks no
 * scheduler (one that is installed but not running would only add a warning to every node).
 */
const SUBMITTERS_FILE = '.svc-node-jobs';

/** The comment of a job submitted for the node a call is made for; none outside a node. */
export function nodeJobComment(env: Env): string | undefined {
  const checkpoint = envValue(env, 'SVC_CHECKPOINT_DIR');
  const node = envValue(env, 'SVC_CURRENT_NODE_ID');
  return checkpoint && node ? `${PREFIX}${runKey(checkpoint)}/${node}` : undefined;
}

/** Notes, before its job is submitted, that the node a call is made for submits one. */
export function noteNodeJob(env: Env): void {
  const checkpoint = envValue(env, 'SVC_CHECKPOINT_DIR');
  const node = envValue(env, 'SVC_CURRENT_NODE_ID');
  if (checkpoint && node) appendFileSync(join(checkpoint, SUBMITTERS_FILE), `${node}\n`);
}

/** Whether the node (any node, for null) has submitted a job, by the checkpoint's note. */
function submittedJobs(checkpointDir: string, nodeId: string | null): boolean {
  let noted: string;
  try {
    noted = readFileSync(join(checkpointDir, SUBMITTERS_FILE), 'utf8');
  } catch {
    return false;
  }
  return nodeId === null ? noted.trim() !== '' : noted.split('\n').includes(nodeId);
}

/**
 * Cancels the jobs of the run's node still queued or running, or with no node those of all its
 * nodes: one `squeue` of the user's jobs, one `scancel`; says which in one line, or that they may
 * still run (they end at their wall time), and returns their ids. Where no node submitted a job,
 * or there is no `squeue` (no job can have been submitted from here), nothing is done or said.
 */
export async function cancelNodeJobs(checkpointDir: string, nodeId: string | null, env: Env, log: (msg: string) => void, runner: CommandRunner = systemRunner(env)): Promise<string[]> {
  if (!submittedJobs(checkpointDir, nodeId) || !Bun.which('squeue', { PATH: env.PATH ?? '' })) return [];
  const [cancelled, whose] = nodeId ? [`${nodeId}: cancelled its Slurm jobs`, `${nodeId}: its Slurm jobs`] : ["cancelled the Slurm jobs the run's nodes left:", "the Slurm jobs the run's nodes left"];
  try {
    // not the ones already ending (COMPLETING), which a cancel has reached
    const q = await runner(['squeue', '-h', '--me', '-t', 'PENDING,RUNNING,SUSPENDED', '-o', '%F %k']);
    if (q.code !== 0) throw new SvcError(`squeue failed: ${q.stderr.trim().split('\n')[0] || 'no output'}`);
    const ids = nodeJobIds(q.stdout, runKey(checkpointDir), nodeId);
    if (ids.length === 0) return [];
    // a job that ended meanwhile makes scancel complain; it is gone all the same
    await runner(['scancel', ...ids]);
    log(`${cancelled} ${ids.join(', ')}`);
    return ids;
  } catch (err) {
    log(`${whose} may still run: ${oneLine(err)}`);
    return [];
  }
}

/**
 * The job ids among `squeue -o '%F %k'` lines (array jobs once, by their base id) whose comment
 * names the run, and the node when one is given.
 */
export function nodeJobIds(listing: string, run: string, nodeId: string | null): string[] {
  const ids = new Set<string>();
  for (const line of listing.split('\n')) {
    const space = line.indexOf(' ');
    const comment = line.slice(space + 1).trimEnd();
    const slash = comment.lastIndexOf('/');
    if (space <= 0 || !comment.startsWith(PREFIX) || comment.slice(PREFIX.length, slash) !== run) continue;
    if (nodeId === null || comment.slice(slash + 1) === nodeId) ids.add(line.slice(0, space));
  }
  return [...ids];
}

/** The checkpoint's real path: a resume may name it by another path than the run did. */
function runKey(checkpointDir: string): string {
  try {
    return realpathSync(checkpointDir);
  } catch {
    return resolve(checkpointDir);
  }
}
