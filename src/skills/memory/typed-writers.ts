import { Type as T } from '@sinclair/typebox';
import { envValue } from '../../core/config/env-vars.ts';
import { writeEvent } from '../../memory/access-log.ts';
import type { ResearchKind } from '../../memory/research/entries.ts';
import { ArtifactRefsParam, ArtifactWorkDirParam, NodeReportRef, REPRO_STATUSES, typedMetadata } from '../../memory/research/writer.ts';
import { defineTool, toolParams, type ToolContext } from '../../mcp/tool.ts';
import { accessLog, checkpointMemory, NodeIdParam } from './context.ts';
import { requireCurrentNode } from './current-node.ts';

const TextParam = T.String({ minLength: 1, maxLength: 20_000, description: 'the entry in words; it is what searches match' });
const COW = 'Only the node being run may write: node_id must equal the current node (copy-on-write).';
const RETURNS = 'Returns {entry_id, node_id, kind, metadata}.';

/** Writes one typed entry of the current node and logs it. */
async function writeTyped(ctx: ToolContext, nodeId: string, kind: ResearchKind, text: string, fields: Record<string, unknown>, workDir: string | undefined) {
  requireCurrentNode(ctx, nodeId);
  const metadata = await typedMetadata(fields, workDir || (envValue(ctx.env, 'SVC_WORK_DIR') ?? '/tmp/svc_work'));
  const entry = await checkpointMemory(ctx).addOne({ nodeId, kind, text, metadata });
  accessLog(ctx)?.append([writeEvent(entry)]);
  return { entry_id: entry.entry_id, node_id: entry.node_id, kind: entry.kind, metadata: entry.metadata };
}

export const addExperimentResult = defineTool({
  name: 'add_experiment_result',
  description: `Record a result the current node measured, with the files it rests on (artifact_refs, sha256 recorded so the result can be verified later). ${COW} ${RETURNS}`,
  params: toolParams({
    node_id: NodeIdParam,
    text: TextParam,
    metric: T.Optional(T.Object({ name: T.String({ minLength: 1 }), value: T.Number() }, { additionalProperties: false, description: 'the headline metric, e.g. {"name": "gflops", "value": 812.4}' })),
    metrics: T.Record(T.String(), T.Number(), { default: {}, description: 'every measured value by name' }),
    artifact_refs: ArtifactRefsParam,
    work_dir: ArtifactWorkDirParam,
    node_report_ref: T.Optional(NodeReportRef),
  }),
  run: (a, ctx) => writeTyped(ctx, a.node_id, 'experiment_result', a.text, { metric: a.metric, metrics: a.metrics, artifact_refs: a.artifact_refs, node_report_ref: a.node_report_ref }, a.work_dir),
});

export const addFailureCase = defineTool({
  name: 'add_failure_case',
  description: `Record what failed in the current node and why, so that descendants avoid it. ${COW} ${RETURNS}`,
  params: toolParams({
    node_id: NodeIdParam,
    text: TextParam,
    reason: T.Optional(T.String({ maxLength: 20_000, description: 'the error or the evaluator reason, as given' })),
    artifact_refs: ArtifactRefsParam,
    work_dir: ArtifactWorkDirParam,
    node_report_ref: T.Optional(NodeReportRef),
  }),
  run: (a, ctx) => writeTyped(ctx, a.node_id, 'failure_case', a.text, { reason: a.reason, artifact_refs: a.artifact_refs, node_report_ref: a.node_report_ref }, a.work_dir),
});

export const addProcedureMemory = defineTool({
  name: 'add_procedure_memory',
  description: `Record a way of doing something that worked in the current node (how to build, run, measure), for descendants to reuse. ${COW} ${RETURNS}`,
  params: toolParams({
    node_id: NodeIdParam,
    text: TextParam,
    commands: T.Array(T.String({ minLength: 1 }), { default: [], description: 'the commands, in order' }),
    node_report_ref: T.Optional(NodeReportRef),
  }),
  run: (a, ctx) => writeTyped(ctx, a.node_id, 'procedure', a.text, { commands: a.commands, node_report_ref: a.node_report_ref }, undefined),
});

export const addReflection = defineTool({
  name: 'add_reflection',
  description: `Record an interpretation or a hunch of the current node. A reflection is never evidence: get_verified_context does not offer it for claims. ${COW} ${RETURNS}`,
  params: toolParams({
    node_id: NodeIdParam,
    text: TextParam,
    confidence: T.Optional(T.Number({ minimum: 0, maximum: 1, description: 'how sure, 0 to 1' })),
    node_report_ref: T.Optional(NodeReportRef),
  }),
  run: (a, ctx) => writeTyped(ctx, a.node_id, 'reflection', a.text, { confidence: a.confidence, node_report_ref: a.node_report_ref }, undefined),
});

export const addReproducibilityEvent = defineTool({
  name: 'add_reproducibility_event',
  description: `Record the outcome of re-running an earlier result (target_entry_id: its entry_id). Events are only ever added; the latest one per target is its status, which get_verified_context uses (rerun_failed withdraws a result, rerun_passed puts it first). ${COW} ${RETURNS}`,
  params: toolParams({
    node_id: NodeIdParam,
    target_entry_id: T.String({ minLength: 1, description: 'entry_id of the result re-run' }),
    status: T.Union(
      REPRO_STATUSES.map((s) => T.Literal(s)),
      { description: REPRO_STATUSES.join(', ') },
    ),
    text: T.Optional(T.String({ minLength: 1, maxLength: 20_000, description: 'what was re-run and what came out; a default sentence when omitted' })),
    artifact_refs: ArtifactRefsParam,
    work_dir: ArtifactWorkDirParam,
  }),
  run: (a, ctx) =>
    writeTyped(ctx, a.node_id, 'reproducibility_event', a.text ?? `reproducibility of ${a.target_entry_id}: ${a.status}`, { target_entry_id: a.target_entry_id, status: a.status, artifact_refs: a.artifact_refs }, a.work_dir),
});
