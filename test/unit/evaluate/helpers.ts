import { newNode } from '../../../src/search/node.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/config.ts';
import { bundledWorkflow } from '../../../src/core/config/workflow.ts';
import { createModelClient } from '../../../src/llm/client.ts';
import { SkillPool } from '../../../src/mcp/pool.ts';
import type { IdeaFile } from '../../../src/schema/checkpoint.ts';
import type { Workflow } from '../../../src/schema/workflow.ts';
import type { EvaluationInput, RunContext, SearchNode } from '../../../src/search/contract.ts';
import type { ModelServer } from '../../support/model-server.ts';
import { tempDir } from '../../support/svc.ts';

export type Box = { dir: string; checkpoint: string; workDir: string; logs: string[] };

export function box(): Box {
  const dir = tempDir('svc-eval-');
  const checkpoint = join(dir, 'workspace', 'checkpoints', 'run1');
  const workDir = join(dir, 'workspace', 'experiments', 'run1', 'node_a');
  mkdirSync(checkpoint, { recursive: true });
  mkdirSync(workDir, { recursive: true });
  mkdirSync(join(dir, 'home'));
  return { dir, checkpoint, workDir, logs: [] };
}

/** The environment that points the model client at the scripted server. */
export function modelEnv(b: Box, server: ModelServer, more: Record<string, string> = {}): Record<string, string> {
  return { HOME: join(b.dir, 'home'), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'judge-model', SVC_LLM_MAX_RETRIES: '0', ...more };
}

export type CtxOptions = { env?: Record<string, string>; workflow?: (w: Workflow) => void; idea?: IdeaFile | null; goal?: string };

/** A real run context around the scripted model server: real config, client, pool and files. */
export function context(b: Box, server: ModelServer, o: CtxOptions = {}): RunContext {
  const env = modelEnv(b, server, o.env);
  const cfg = loadConfig({ cwd: b.dir, env });
  const workflow = bundledWorkflow();
  o.workflow?.(workflow);
  return {
    cfg,
    workflow,
    settings: {} as RunContext['settings'],
    env: { ...env, SVC_CHECKPOINT_DIR: b.checkpoint },
    checkpointDir: b.checkpoint,
    runId: 'run1',
    experimentsDir: join(b.dir, 'workspace', 'experiments', 'run1'),
    goal: o.goal ?? 'Make the sort faster. Primary metric: speedup',
    model: createModelClient({ cfg, checkpointDir: b.checkpoint, env }),
    pool: new SkillPool({ skills: [], env: {} }),
    idea: () => o.idea ?? null,
    log: (msg) => b.logs.push(msg),
  };
}

export function node(id = 'node_a'): SearchNode {
  return { ...newNode({ id, parent: null, label: 'draft', rawLabel: 'draft', name: 'draft', direction: null, now: '2026-01-01T00:00:00.000Z' }), status: 'running' };
}

export function input(ctx: RunContext, b: Box, artifacts: unknown[] = [], summary = 'ran the benchmark'): EvaluationInput {
  return { ctx, node: node(), workDir: b.workDir, artifacts, summary, signal: new AbortController().signal };
}

export function writeResults(b: Box, record: unknown): void {
  writeFileSync(join(b.workDir, 'results.json'), typeof record === 'string' ? record : JSON.stringify(record));
}

/** A judge answer scoring `scores` by axis name. */
export function judgeReply(scores: Record<string, number>, more: Record<string, unknown> = {}): { text: string } {
  return {
    text: JSON.stringify({
      has_real_data: true,
      params: {},
      measurements: {},
      metrics: {},
      reason: 'measured against a baseline',
      axis_scores: scores,
      axis_rationales: Object.fromEntries(Object.keys(scores).map((k) => [k, `why ${k}`])),
      comparison_found: true,
      ...more,
    }),
  };
}

export const LEGACY = ['measurement_validity', 'comparative_rigor', 'novelty', 'reproducibility', 'clarity_of_contribution'];

/** The system messages of the i-th request to the model server. */
export function systemText(server: ModelServer, i: number): string {
  const messages = (server.requests[i]?.body as { messages: { role: string; content: string }[] }).messages;
  return messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
}
