import { isAbsolute } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { envValue } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';
import { statOrNull } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { writeEvent } from '../../memory/access-log.ts';
import { auditExperiments } from '../../memory/research/audit.ts';
import { consolidateNodeReport, reportDigest } from '../../memory/research/consolidation.ts';
import { RESEARCH_KINDS } from '../../memory/research/entries.ts';
import { NodeReport } from '../../memory/research/node-report.ts';
import { readMetricContract } from '../../evaluate/metric-contract.ts';
import { defineTool, toolParams, type ToolContext } from '../../mcp/tool.ts';
import { accessLog, checkpointMemory, NodeIdParam } from './context.ts';
import { requireCurrentNode } from './current-node.ts';

export const auditMemory = defineTool({
  name: 'audit_memory',
  description:
    'Check recorded provenance against disk: every artifact the node reports under experiments_root/<run>/<node>/node_report.json point at, and every artifact of this checkpoint\'s memory entries whose work_dir lies there, is re-hashed. Each result is verified, mismatch (sha256 changed), missing, unhashed (no sha256 recorded) or invalid. Returns {summary: {total, verified, mismatch, missing, unhashed, invalid, node_reports, memory_entries}, results}.',
  params: toolParams({
    experiments_root: T.String({ minLength: 1, description: 'absolute path of the experiments directory (<workspace>/experiments)' }),
    run_id: T.Optional(T.String({ minLength: 1, description: 'audit this run only' })),
  }),
  async run(args, ctx) {
    const entries = await checkpointMemory(ctx).listEverything(RESEARCH_KINDS);
    return auditExperiments(args.experiments_root, args.run_id ?? null, entries);
  },
});

export const consolidateNodeMemory = defineTool({
  name: 'consolidate_node_memory',
  description:
    "Derive the current node's typed memory from its node_report when it ends: an experiment_result (metrics, artifacts with sha256) and a procedure (build and run commands) for a success, a failure_case otherwise, and a low-confidence reflection from the next-step hints. Consolidating the same report again writes nothing. Only the node being run may do this (copy-on-write). Returns {written: [{kind, entry_id}], deduplicated}.",
  params: toolParams({
    node_id: NodeIdParam,
    node_report: NodeReport,
    work_dir: T.String({ minLength: 1, description: "absolute path of the node's work directory, which the report's artifact paths are relative to" }),
    run_id: T.Optional(T.String({ minLength: 1, description: 'the run the node belongs to, kept in node_report_ref' })),
  }),
  async run(args, ctx) {
    requireCurrentNode(ctx, args.node_id);
    if (args.node_report.node_id !== args.node_id) {
      throw new InputError(`node_report is the report of node '${printable(args.node_report.node_id)}', not of '${printable(args.node_id)}'`);
    }
    if (!isAbsolute(args.work_dir) || !statOrNull(args.work_dir)?.isDirectory()) throw new InputError(`work_dir '${printable(args.work_dir)}' is not an absolute path of a directory`);
    const memory = checkpointMemory(ctx);
    const digest = reportDigest(args.node_report);
    const earlier = (await memory.list([args.node_id], RESEARCH_KINDS)).filter((e) => e.metadata.consolidated_from === digest);
    if (earlier.length > 0) return { written: earlier.map((e) => ({ kind: e.kind, entry_id: e.entry_id })), deduplicated: true };
    const specs = await consolidateNodeReport(args.node_report, args.work_dir, { runId: args.run_id ?? null, primaryMetric: contractMetric(ctx) });
    const written = specs.length === 0 ? [] : await memory.add(specs.map((s) => ({ nodeId: args.node_id, ...s })));
    accessLog(ctx)?.append(written.map(writeEvent));
    return { written: written.map((e) => ({ kind: e.kind, entry_id: e.entry_id })), deduplicated: false };
  },
});

/** The measurement the checkpoint's metric contract is about, when there is a readable contract. */
function contractMetric(ctx: ToolContext): string | null {
  const dir = envValue(ctx.env, 'SVC_CHECKPOINT_DIR');
  try {
    const key = dir === null ? undefined : readMetricContract(dir)?.key;
    return typeof key === 'string' ? key : null;
  } catch {
    return null;
  }
}
