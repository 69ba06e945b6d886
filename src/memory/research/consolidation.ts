import { normalizeNodeStatus } from '../../core/checkpoint/status.ts';
import { InputError } from '../../core/errors.ts';
import type { ResearchKind } from './entries.ts';
import { type NodeReport, reportArtifacts } from './node-report.ts';

export type TypedEntrySpec = { kind: ResearchKind; text: string; metadata: Record<string, unknown> };

/** An entry's text is a summary to search by; the report keeps the rest. */
const MAX_TEXT = 1000;
/** Hints are the evaluator's guesses about what to try next: weak evidence. */
const HINT_CONFIDENCE = 0.4;

/**
 * The typed entries a finished node's report yields, without writing them:
 * - success with numeric metrics: an experiment_result (headline metric, all numeric metrics, the
 *   report's artifacts with their sha256, unrecorded ones hashed from `workDir` now);
 * - success with a build or run command: a procedure saying how the node built and ran;
 * - any other end status: a failure_case (reason, concerns, artifacts);
 * - next-step hints: a reflection of low confidence.
 * Every entry carries node_report_ref and `consolidated_from` (the sha256 of the report as given),
 * by which a second consolidation of the same report is recognised.
 */
export async function consolidateNodeReport(report: NodeReport, workDir: string, opts: { runId: string | null; primaryMetric: string | null }): Promise<TypedEntrySpec[]> {
  const status = normalizeNodeStatus(report.status);
  if (status === 'pending' || status === 'running') throw new InputError(`node ${report.node_id} has not finished (status ${report.status})`, 'consolidate a node once it has ended');
  const common = {
    node_report_ref: { node_id: report.node_id, ...(opts.runId ? { run_id: opts.runId } : {}) },
    consolidated_from: reportDigest(report),
  };
  const headline = [report.self_assessment?.headline, report.what_was_done, report.delta_vs_parent].find((t) => typeof t === 'string' && t.trim() !== '')?.trim();
  const refs = await reportArtifacts(report, workDir, true);
  const evidence = refs.length > 0 ? { artifact_refs: refs, work_dir: workDir } : { artifact_refs: [] };
  const specs: TypedEntrySpec[] = [];
  if (status === 'success') {
    const metrics = numericMetrics(report.metrics ?? {});
    const names = Object.keys(metrics);
    if (names.length > 0) {
      const primary = opts.primaryMetric !== null && names.includes(opts.primaryMetric) ? opts.primaryMetric : (names[0] as string);
      const listed = names.map((n) => `${n}=${metrics[n]}`).join(', ');
      specs.push({
        kind: 'experiment_result',
        text: cut(`${headline ?? `node ${report.node_id} results`} (${listed})`),
        metadata: { metric: { name: primary, value: metrics[primary] }, metrics, ...evidence, ...common },
      });
    }
    const commands = [report.build_command, report.run_command].filter((c): c is string => typeof c === 'string' && c.trim() !== '');
    if (commands.length > 0) {
      specs.push({ kind: 'procedure', text: cut(`How node ${report.node_id} was built and run: ${commands.join(' ; ')}`), metadata: { commands, ...common } });
    }
  } else {
    const reason = typeof report.evaluator_reason === 'string' && report.evaluator_reason.trim() !== '' ? report.evaluator_reason.trim() : null;
    specs.push({
      kind: 'failure_case',
      text: cut(headline ?? reason ?? `node ${report.node_id} ended with status ${report.status}`),
      metadata: { status: report.status, reason, concerns: report.self_assessment?.concerns ?? [], ...evidence, ...common },
    });
  }
  const hints = (report.next_steps_hints ?? []).filter((h) => h.trim() !== '');
  if (hints.length > 0) specs.push({ kind: 'reflection', text: cut(hints.join('; ')), metadata: { confidence: HINT_CONFIDENCE, hints, ...common } });
  return specs;
}

export function reportDigest(report: NodeReport): string {
  return new Bun.CryptoHasher('sha256').update(JSON.stringify(report)).digest('hex');
}

/** Metrics that are finite numbers (booleans and nested values are not metrics to cite). */
function numericMetrics(metrics: Record<string, unknown>): Record<string, number> {
  return Object.fromEntries(Object.entries(metrics).filter((kv): kv is [string, number] => typeof kv[1] === 'number' && Number.isFinite(kv[1])));
}

function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 3)}...` : text;
}
