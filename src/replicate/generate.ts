import axesTemplate from '../prompts/replicate/rubric_axes.md' with { type: 'text' };
import leavesTemplate from '../prompts/replicate/rubric_leaves.md' with { type: 'text' };
import oneStageTemplate from '../prompts/replicate/rubric_one_stage.md' with { type: 'text' };
import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../core/atomic.ts';
import { isMapping } from '../core/values.ts';
import type { CompletionRequest, ModelClient } from '../llm/client.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';
import type { RubricMeta, RubricNode } from '../schema/ors-rubric.ts';
import type { PaperSource } from './paper.ts';
import { assembleRubric, leavesOf, type Requirement, requirementOf, requirementsProblem, rubricBytes, rubricSha256 } from './rubric.ts';

export const META_SUFFIX = '.meta.json';
const MAX_PAPER_CHARS = 120_000;

export type RubricJob = {
  client: Pick<ModelClient, 'completeJson' | 'choice'>;
  paper: PaperSource;
  outputPath: string;
  targetLeafCount: number;
  temperature: number;
  seed: number;
  twoStage: boolean;
  signal?: AbortSignal;
};

export type RubricResult = { rubric_path: string; meta_path: string; meta: RubricMeta; axes: { id: string; weight: number; leaves: number }[] };

/**
 * Makes the rubric and writes it with its meta beside it (`<name>.meta.json` for `<name>.json`):
 * the meta first, then the rubric, each atomically, so a rubric file never stands without the
 * record of how it was made, and a failed answer leaves neither.
 */
export async function generateRubric(job: RubricJob): Promise<RubricResult> {
  const root = job.twoStage ? await twoStage(job) : await oneStage(job);
  const leaves = leavesOf(root).length;
  const meta: RubricMeta = {
    rubric_sha256: rubricSha256(root),
    model: job.client.choice('rubric_gen').model,
    temperature: job.temperature,
    seed: job.seed,
    two_stage: job.twoStage,
    target_leaf_count: job.targetLeafCount,
    leaf_count: leaves,
    generated_at: new Date().toISOString(),
    paper_sha256: job.paper.sha256,
  };
  const metaPath = metaPathOf(job.outputPath);
  writeJsonAtomic(metaPath, meta);
  try {
    writeFileAtomic(job.outputPath, rubricBytes(root));
  } catch (err) {
    // a meta without its rubric would describe bytes that are not there
    rmSync(metaPath, { force: true });
    throw err;
  }
  return { rubric_path: job.outputPath, meta_path: metaPath, meta, axes: root.sub_tasks.map((a) => ({ id: a.id, weight: a.weight, leaves: a.sub_tasks.length })) };
}

export function metaPathOf(rubricPath: string): string {
  return join(dirname(rubricPath), `${basename(rubricPath).replace(/\.json$/i, '')}${META_SUFFIX}`);
}

/** The axes first; then each axis's leaves, asked for at once, in numbers by the axes' weights. */
async function twoStage(job: RubricJob): Promise<RubricNode> {
  const paper = paperBlock(job.paper);
  const first = await ask<{ axes: Record<string, unknown>[] }>(job, 'rubric_axes', fillOwnPrompt(axesTemplate, { paper, target_leaf_count: job.targetLeafCount }, 'replicate/rubric_axes'), (v) =>
    isMapping(v) ? requirementsProblem(v.axes, 'axes', { leaves: false, min: 1 }) : 'the answer is not an object with axes',
  );
  const axes = first.axes.map(requirementOf);
  const counts = leafCounts(axes, job.targetLeafCount);
  const axesList = axes.map((a) => `- ${a.id || '(no id)'} (weight ${a.weight}): ${a.requirements}`).join('\n');
  const leaves = await Promise.all(
    axes.map(async (axis, i) => {
      const prompt = fillOwnPrompt(leavesTemplate, { paper, axes: axesList, axis: `${axis.id || `axis ${i + 1}`} (weight ${axis.weight}): ${axis.requirements}`, leaf_count: counts[i] ?? 1 }, 'replicate/rubric_leaves');
      const answer = await ask<{ leaves: Record<string, unknown>[] }>(job, 'rubric_leaves', prompt, (v) => (isMapping(v) ? requirementsProblem(v.leaves, 'leaves', { leaves: true, min: 1 }) : 'the answer is not an object with leaves'));
      return answer.leaves.map(requirementOf);
    }),
  );
  return assembleRubric(axes.map((axis, i) => ({ axis, leaves: leaves[i] ?? [] })));
}

async function oneStage(job: RubricJob): Promise<RubricNode> {
  const prompt = fillOwnPrompt(oneStageTemplate, { paper: paperBlock(job.paper), target_leaf_count: job.targetLeafCount }, 'replicate/rubric_one_stage');
  const answer = await ask<{ axes: Record<string, unknown>[] }>(job, 'rubric_one_stage', prompt, oneStageProblem);
  return assembleRubric(answer.axes.map((a) => ({ axis: requirementOf(a), leaves: (a.leaves as Record<string, unknown>[]).map(requirementOf) })));
}

function oneStageProblem(v: unknown): string | null {
  if (!isMapping(v)) return 'the answer is not an object with axes';
  const axes = requirementsProblem(v.axes, 'axes', { leaves: false, min: 1 });
  if (axes) return axes;
  for (const [i, a] of (v.axes as Record<string, unknown>[]).entries()) {
    const leaves = requirementsProblem(a.leaves, `axes[${i}].leaves`, { leaves: true, min: 1 });
    if (leaves) return leaves;
  }
  return null;
}

/** The target shared out by weight, at least one leaf an axis; the model's own counts are kept as given. */
export function leafCounts(axes: Requirement[], target: number): number[] {
  const total = axes.reduce((s, a) => s + a.weight, 0);
  return axes.map((a) => Math.max(1, Math.round((target * a.weight) / total)));
}

function paperBlock(paper: PaperSource): string {
  const text = paper.text.trim();
  return text.length > MAX_PAPER_CHARS ? `${text.slice(0, MAX_PAPER_CHARS)}\n[... the rest of the paper is cut]` : text;
}

/** One call of the generator: temperature and seed as the job says, so the same paper gives the same rubric. */
function ask<T>(job: RubricJob, op: string, system: string, check: (v: unknown) => string | null): Promise<T> {
  const req: CompletionRequest = {
    role: 'rubric_gen',
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: 'Write this part of the rubric. Answer with the JSON object only.' },
    ],
    temperature: job.temperature,
    seed: job.seed,
    meta: { phase: 'paper', skill: 'replicate-skill', component: 'rubric', op },
    signal: job.signal,
  };
  return job.client.completeJson<T>(req, check, { retries: 1 });
}
