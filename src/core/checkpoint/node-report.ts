import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, InvalidRecordError, NotFoundError, TooLargeError } from '../errors.ts';
import { isSafeId, resolveInside } from '../paths.ts';

export const NODE_REPORT_FILE = 'node_report.json';

/** A report is a few kilobytes; anything near this size is not one. */
export const MAX_NODE_REPORT_BYTES = 16 * 1024 * 1024;

/**
 * The node report of node `nodeId` in run `runId`: `<workspace>/experiments/<run>/<node>/node_report.json`,
 * parsed. Runs of the older layout keep their nodes under the run id without its timestamp prefix.
 */
export function readNodeReport(workspaceRoot: string, runId: string, nodeId: string): Record<string, unknown> {
  checkId(runId, 'run id');
  checkId(nodeId, 'node id');
  const experiments = join(workspaceRoot, 'experiments');
  const runDir = runDirectory(experiments, runId);
  const nodeDir = resolveInside(experiments, join(runDir, nodeId), 'node directory');
  if (!statSync(nodeDir, { throwIfNoEntry: false })?.isDirectory()) throw new NotFoundError(`unknown node ${nodeId} in run ${runId}`, `no directory ${nodeDir}`);
  const file = join(nodeDir, NODE_REPORT_FILE);
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st) throw new NotFoundError(`node ${nodeId} of run ${runId} has no report`, `no ${file}`);
  if (!st.isFile()) throw new InvalidRecordError(`${file} is not a regular file`);
  if (st.size > MAX_NODE_REPORT_BYTES) throw new TooLargeError(`${file} is ${st.size} bytes; a node report is at most ${MAX_NODE_REPORT_BYTES}`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InvalidRecordError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidRecordError(`${file} is not a JSON object`);
  return value as Record<string, unknown>;
}

/** Ids are single directory names: no separators, no `..`, nothing hidden. */
function checkId(id: string, what: string): void {
  if (!isSafeId(id)) {
    throw new InputError(`${what} '${JSON.stringify(id).slice(1, -1)}' is not valid`, 'ids are directory names: letters, digits, . _ -');
  }
}

/** The run's directory relative to experiments/: its id, else the legacy slug after `<digits>_`. */
function runDirectory(experiments: string, runId: string): string {
  const legacy = /^\d+_(.+)$/.exec(runId)?.[1];
  for (const name of legacy ? [runId, legacy] : [runId]) {
    if (statSync(resolveInside(experiments, name, 'run directory'), { throwIfNoEntry: false })?.isDirectory()) return name;
  }
  throw new NotFoundError(`unknown run ${runId}`, `no directory ${join(experiments, runId)}`);
}
