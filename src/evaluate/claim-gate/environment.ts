import { isMapping } from '../../core/values.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from './finding.ts';

/**
 * Where a node ran, from its node_report.json: executor, host, scheduler partition and CPU model.
 * Null when the report is missing or records none of them: an unknown environment is never a
 * mismatch.
 */
export function nodeEnvironment(experimentsDir: string, nodeId: string): string | null {
  let report: unknown;
  try {
    report = JSON.parse(readFileSync(join(experimentsDir, nodeId, 'node_report.json'), 'utf8'));
  } catch {
    return null;
  }
  if (!isMapping(report)) return null;
  const cpu = isMapping(report.cpu_info) ? report.cpu_info.model : null;
  const parts = [report.executor, report.hostname, report.slurm_partition, cpu].map((v) => (typeof v === 'string' && v !== '' ? v : null));
  return parts.every((p) => p === null) ? null : parts.map((p) => p ?? '-').join(' / ');
}

/**
 * The cross-environment check: the grounded claims of one text compare numbers, so they must be
 * backed by nodes of one environment. `claimNodes` holds, per grounded claim, the nodes whose
 * reported value it matched. When no single environment backs every claim (nodes of unknown
 * environment back any), the finding is environment_mismatch: the caller makes it a warning under
 * comparison_scope any and a blocking error under same_environment.
 */
export function environmentFinding(claimNodes: readonly (readonly string[])[], envOf: (nodeId: string) => string | null): Finding | null {
  let common = null as Set<string> | null;
  const seen = new Set<string>();
  for (const nodes of claimNodes) {
    const envs = nodes.map(envOf);
    if (envs.length === 0 || envs.some((e) => e === null)) continue; // backed by a node of unknown environment
    const own = new Set(envs as string[]);
    for (const e of own) seen.add(e);
    const before: Set<string> | null = common;
    common = before === null ? own : new Set([...before].filter((e) => own.has(e)));
  }
  if (common === null || common.size > 0) return null;
  return { type: 'environment_mismatch', message: `the claims compare numbers measured in different environments: ${[...seen].sort().join('; ')}` };
}
