import { newNode } from '../../../src/search/node.ts';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/config.ts';
import { listSkills } from '../../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../../src/core/config/workflow.ts';
import { createModelClient } from '../../../src/llm/client.ts';
import { SkillPool } from '../../../src/mcp/pool.ts';
import type { Evaluate, Evaluation, NodeLabel, NodeTask, RunContext, RunSettings, SearchNode } from '../../../src/search/contract.ts';
import { type ModelServer, startModelServer, type Step } from '../../support/model-server.ts';
import { removeDir, SVC, tempDir } from '../../support/svc.ts';

export const RUN_ID = '20260101000000_demo';

/** A run of the agent against real parts: a scripted model server, the built coding skill, real directories. */
export type Bench = {
  dir: string;
  checkpoint: string;
  experimentsDir: string;
  server: ModelServer;
  ctx: RunContext;
  logs: string[];
  /** the node's work directory, created */
  workDir(nodeId: string): string;
  close(): Promise<void>;
};

export function settings(over: Partial<RunSettings> = {}): RunSettings {
  return {
    maxNodes: 50,
    maxDepth: 5,
    parallel: 1,
    maxReact: 10,
    timeoutNodeS: 7200,
    maxExpansionsPerNode: 4,
    expansionEnabled: true,
    frontierScore: 'scientific_plus_diversity',
    depthPenaltyLambda: 0.05,
    ucbC: 0.5,
    selectPrompt: '',
    expandSelectPrompt: '',
    ...over,
  };
}

/** `ledger`: the model client records its calls in the checkpoint's cost ledger. */
export function bench(script: Step[], over: Partial<RunSettings> = {}, ledger = false): Bench {
  const dir = tempDir('svc-agent-');
  const checkpoint = join(dir, 'workspace', 'checkpoints', RUN_ID);
  const experimentsDir = join(dir, 'workspace', 'experiments', RUN_ID);
  mkdirSync(checkpoint, { recursive: true });
  mkdirSync(join(dir, 'home'));
  const server = startModelServer(script);
  const env = { HOME: join(dir, 'home'), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'qwen3:4b', SVC_LLM_MAX_RETRIES: '0' };
  const cfg = loadConfig({ cwd: dir, env });
  const workflow = bundledWorkflow();
  const runEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(dir, 'home'), SVC_CHECKPOINT_DIR: checkpoint };
  const pool = new SkillPool({ skills: listSkills(workflow, dir).filter((s) => s.name === 'coding-skill'), env: runEnv, program: SVC });
  const logs: string[] = [];
  const ctx: RunContext = {
    cfg,
    workflow,
    settings: settings(over),
    env: runEnv,
    checkpointDir: checkpoint,
    runId: RUN_ID,
    experimentsDir,
    goal: 'Measure how fast a loop sums the integers below one million.',
    model: createModelClient({ cfg, checkpointDir: ledger ? checkpoint : null }),
    pool,
    idea: () => null,
    log: (m) => logs.push(m),
  };
  return {
    dir,
    checkpoint,
    experimentsDir,
    server,
    ctx,
    logs,
    workDir(nodeId) {
      const d = join(experimentsDir, nodeId);
      mkdirSync(d, { recursive: true });
      return d;
    },
    async close() {
      await pool.close();
      server.stop();
      removeDir(dir);
    },
  };
}

export function node(id: string, over: Partial<SearchNode> = {}): SearchNode {
  const label: NodeLabel = over.label ?? 'draft';
  const fresh = newNode({ id, parent: null, label, rawLabel: label, name: `${label}: test`, direction: null, now: '2026-01-01T00:00:00Z' });
  return { ...fresh, status: 'running', ...over };
}

export function task(b: Bench, n: SearchNode, parent: SearchNode | null = null, signal: AbortSignal = new AbortController().signal): NodeTask {
  return { ctx: b.ctx, node: n, parent, workDir: b.workDir(n.id), signal };
}

/** An evaluator that scores every node 0.5 and records what it was given. */
export function recordingEvaluate(): Evaluate & { calls: Parameters<Evaluate>[0][] } {
  const calls: Parameters<Evaluate>[0][] = [];
  const fn = async (input: Parameters<Evaluate>[0]): Promise<Evaluation> => {
    calls.push(input);
    return {
      metrics: { time_s: 0.1, _scientific_score: 0.5, _axis_scores: { novelty: 0.2, rigor: 0.5, clarity: 0.9 } },
      has_real_data: true,
      reason: 'measured a time',
      axis_rationales: { novelty: 'a known loop', rigor: 'one run only' },
    };
  };
  return Object.assign(fn, { calls });
}

/** The request bodies the model server got, as the OpenAI protocol carries them. */
export function bodies(b: Bench): { messages: { role: string; content: unknown; tool_call_id?: string }[]; tool_choice?: unknown; tools?: { function: { name: string; parameters: Record<string, unknown> } }[] }[] {
  return b.server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as never);
}

export const call = (name: string, args: unknown) => ({ toolCalls: [{ name, args }] });
export const finish = (summary: string, artifacts: string[] = []) => ({ text: JSON.stringify({ status: 'success', summary, artifacts }) });
