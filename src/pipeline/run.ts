import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { statOrNull } from '../core/paths.ts';
import { isMapping } from '../core/values.ts';
import type { Env } from '../core/config/env-vars.ts';
import { listSkills } from '../core/config/skills.ts';
import { renderDeep, renderTemplate, templateVars, unresolvedPlaceholders } from '../core/config/template.ts';
import { autoPromote, type AutoPromotion, publishRequired } from '../ear/pipeline-gates.ts';
import type { ModelClient } from '../llm/client.ts';
import type { SkillPool, ToolInfo } from '../mcp/pool.ts';
import type { Workflow } from '../schema/workflow.ts';
import { loopBack } from './loop-back.ts';
import { preflight } from './preflight.ts';
import { keepStageOutput } from './stage-output.ts';
import { type PlannedStage, pipelineStages, usableOutput } from './stages.ts';

/** Marker touched when the post-search pipeline starts. */
export const PIPELINE_STARTED = '.pipeline_started';
/** The tool whose failure `required: true` in publish.yaml turns into the pipeline's. */
const PUBLISH_TOOL = 'publish_ear';
/** The reproducibility check, whose pass lets auto_promote act. */
const REPRODUCIBILITY_TOOL = 'grade_with_judge';

export type StageStatus = 'done' | 'skipped' | 'failed' | 'unavailable';
export type StageOutcome = { stage: string; status: StageStatus; detail: string; output?: string; /** skipped because a stage it depends on produced nothing */ blocked?: true };
export type PipelineResult = {
  stages: StageOutcome[];
  /** set when the pipeline itself failed (a required publish did), not just a stage */
  failure: string | null;
  promotion?: AutoPromotion;
};

export type PipelineOptions = {
  checkpointDir: string;
  projectRoot: string;
  workflow: Workflow;
  pool: SkillPool;
  env: Env;
  /** the run's model client, for the pre-flight's keywords; a string says why there is none */
  model: ModelClient | string;
  /** run this stage only (its dependencies are taken from their output files) */
  only?: string;
  /** extra tool arguments by stage name, laid over the workflow's inputs */
  overrides?: Record<string, Record<string, unknown>>;
  log: (line: string) => void;
  signal?: AbortSignal;
};

/**
 * Runs the workflow's post-search stages in file order (each below those it depends on), each a call to its skill's tool with
 * the stage's inputs ({{template}} variables filled), after the pre-flight (preflight.ts), whose
 * sanity gate may stop the pipeline before any stage. A stage whose skill or tool this version does
 * not have is unavailable; one whose output is already usable is skipped (skip_if_exists), as is
 * one whose tool declines with a reason ({skipped: true, reason}); a stage after a failed, unavailable or skipped-without-output one is skipped. A failure ends only that
 * stage, unless it is the publish and publish.yaml sets `required: true`: then the pipeline fails
 * and stops. A stage with loop_back_to whose result scores low sends the pipeline back to an
 * earlier stage (loop-back.ts). After the reproducibility check, auto_promote may promote the staged bundle.
 */
export async function runPipeline(opts: PipelineOptions): Promise<PipelineResult> {
  const planned = pipelineStages(opts.workflow);
  const chosen = opts.only === undefined ? planned : planned.filter((s) => s.stage === opts.only);
  writeFileAtomic(join(opts.checkpointDir, PIPELINE_STARTED), `${new Date().toISOString()}\n`);
  const pre = await preflight({ checkpointDir: opts.checkpointDir, workflow: opts.workflow, env: opts.env, model: opts.model, stages: chosen, signal: opts.signal });
  for (const line of pre.lines) opts.log(line);
  if (pre.stop) return { stages: [], failure: pre.stop };

  const skills = new Map(listSkills(opts.workflow, opts.projectRoot).map((s) => [s.name, s]));
  const tools = await opts.pool.tools();
  const outcomes = new Map<string, StageOutcome>();
  const outputs: Record<string, { outputs: { file?: string } }> = {};
  let vlmFeedback = '';
  const vars = () =>
    templateVars({
      checkpointDir: opts.checkpointDir,
      projectRoot: opts.projectRoot,
      workflow: opts.workflow,
      stages: outputs,
      extra: { ...pre.vars, paper_context: pre.paperContext(), vlm_feedback: vlmFeedback },
    });
  const outputFile = (s: PlannedStage, v = vars()) => (s.outputs?.file ? renderTemplate(s.outputs.file, v) : undefined);
  if (opts.only !== undefined) {
    // one stage alone: what the others made before is there to use
    for (const s of planned) {
      const file = outputFile(s);
      if (file && usableOutput(file)) outputs[s.stage] = { outputs: { file } };
    }
  }

  // each stage's latest outcome, in the order stages first ran: a stage run again by a loop-back reports its last run
  const reported = new Map<string, StageOutcome>();
  const result: PipelineResult = { stages: [], failure: null };
  const loops = new Map<string, number>();
  // the tool result of the stage that ran last, for the reproducibility gate and loop-backs
  let lastResult: unknown;
  for (let i = 0; i < chosen.length; i++) {
    const stage = chosen[i] as PlannedStage;
    if (opts.signal?.aborted) break;
    const outcome = await runStage(stage);
    outcomes.set(stage.stage, outcome);
    reported.set(stage.stage, outcome);
    opts.log(`${stage.stage}: ${outcome.status}${outcome.detail ? ` (${outcome.detail})` : ''}`);
    if ((outcome.status === 'failed' || outcome.blocked) && stage.tool === PUBLISH_TOOL && publishRequired(opts.checkpointDir)) {
      result.failure = `${stage.stage} ${outcome.status === 'failed' ? 'failed' : 'could not run'} and publish.yaml sets required: true: ${outcome.detail}`;
      break;
    }
    if (stage.tool === REPRODUCIBILITY_TOOL && (outcome.status === 'done' || outcome.output)) {
      // a check skipped for its existing grade (skip_if_exists) has still been made: that grade counts
      const grade = outcome.status === 'done' ? lastResult : await Bun.file(outcome.output as string).json().catch(() => null);
      result.promotion = await autoPromote(opts.checkpointDir, grade, opts.env);
      opts.log(`auto_promote: ${describePromotion(result.promotion)}`);
    }
    if (outcome.status !== 'done' || !stage.loop_back_to || opts.only !== undefined) continue;
    const done = loops.get(stage.stage) ?? 0;
    const back = loopBack(stage, lastResult, done);
    if (!back) continue;
    const target = chosen.findIndex((s) => s.stage === back.target);
    if (back.exhausted || target < 0 || target > i) {
      opts.log(`${stage.stage}: ${back.why}, ${back.exhausted ? `but its ${done} loop-back${done === 1 ? ' is' : 's are'} spent` : `but ${back.target} is not a stage above it that runs`}; going on`);
      continue;
    }
    loops.set(stage.stage, done + 1);
    vlmFeedback = back.feedback;
    const v = vars();
    for (const s of chosen.slice(target, i + 1)) {
      delete outputs[s.stage];
      outcomes.delete(s.stage);
      const skipFile = s.skip_if_exists ? renderTemplate(s.skip_if_exists, v) : null;
      if (skipFile && statOrNull(skipFile)?.isFile()) rmSync(skipFile);
    }
    opts.log(`${stage.stage}: ${back.why}; back to ${back.target} with its feedback (loop-back ${done + 1} of ${back.max})`);
    i = target - 1;
  }
  result.stages = [...reported.values()];
  return result;

  async function runStage(s: PlannedStage): Promise<StageOutcome> {
    const base = { stage: s.stage };
    if (opts.only === undefined) {
      for (const d of s.deps) {
        const dep = outcomes.get(d);
        if (dep && !outputs[d]) return { ...base, status: 'skipped', blocked: true, detail: `depends on ${d}, which ${dep.status === 'skipped' ? 'was skipped' : dep.status === 'unavailable' ? 'is unavailable' : 'failed'}` };
      }
    }
    const tool = s.tool ?? '';
    const skill = skills.get(s.skillName);
    if (!tool || !s.skillName) return { ...base, status: 'failed', detail: 'the stage names no skill and tool' };
    if (!skill) return { ...base, status: 'unavailable', detail: `${s.skillName} is not among the workflow's skills` };
    if (!skill.enabled) return { ...base, status: 'skipped', detail: `${s.skillName} is switched off in this workflow` };
    if (!skill.found) return { ...base, status: 'unavailable', detail: skill.builtin ? `${s.skillName} is not in this version of svc` : `${s.skillName}: nothing at ${skill.path}` };
    const offered = tools.find((t: ToolInfo) => t.skill === s.skillName && t.name === tool);
    if (!offered) {
      const off = opts.workflow.disabled_tools?.some((d) => d === tool || d === `${s.skillName}:${tool}`);
      if (off) return { ...base, status: 'skipped', detail: `${tool} is disabled in this workflow` };
      return { ...base, status: 'unavailable', detail: skill.builtin ? `${s.skillName} has no ${tool} in this version of svc` : `${s.skillName} offers no ${tool}` };
    }

    const v = vars();
    const output = outputFile(s, v);
    const skipIf = s.skip_if_exists ? renderTemplate(s.skip_if_exists, v) : undefined;
    if (skipIf && usableOutput(skipIf)) {
      outputs[s.stage] = { outputs: { file: skipIf } };
      return { ...base, status: 'skipped', detail: `${skipIf} is already there; delete it to run the stage again`, output: skipIf };
    }
    const args = { ...renderDeep(s.inputs ?? {}, v), ...(opts.overrides?.[s.stage] ?? {}) };
    const missing = unresolvedPlaceholders(JSON.stringify(args));
    if (missing.length > 0) return { ...base, status: 'failed', detail: `its inputs use ${[...new Set(missing)].map((m) => `{{${m}}}`).join(', ')}, which this run does not provide` };

    const before = output ? (statOrNull(output)?.mtimeMs ?? null) : null;
    const reply = await opts.pool.call(tool, args, { skill: s.skillName, signal: opts.signal });
    if ('error' in reply) return { ...base, status: 'failed', detail: reply.error };
    const value = reply.result;
    if (isMapping(value) && 'error' in value) {
      return { ...base, status: 'failed', detail: String(value.error) };
    }
    lastResult = value;
    if (output) {
      // a tool that wrote its output file itself keeps it; otherwise the result is the output
      const after = statOrNull(output)?.mtimeMs ?? null;
      if (after === null || after === before) {
        mkdirSync(dirname(output), { recursive: true });
        const problem = keepStageOutput(output, value, s.stage, opts.checkpointDir);
        if (problem) return { ...base, status: 'failed', detail: problem };
      }
      outputs[s.stage] = { outputs: { file: output } };
    } else outputs[s.stage] = { outputs: {} };
    // a tool that chose not to do its work says why ({skipped: true, reason}); what it wrote is kept
    const declined = isMapping(value) && value.skipped === true && typeof value.reason === 'string' ? value.reason : null;
    if (declined !== null) return { ...base, status: 'skipped', detail: declined, ...(output ? { output } : {}) };
    return { ...base, status: 'done', detail: output ?? '', ...(output ? { output } : {}) };
  }
}

export function describePromotion(p: AutoPromotion): string {
  if ('promoted' in p) return `promoted to ${p.promoted.visibility} (${p.promoted.ref})`;
  if ('failed' in p) return `promotion failed: ${p.failed}`;
  return `not promoted: ${p.skipped}`;
}

/** One line for the end of a pipeline: how many stages ended how, and the failure if any. */
export function pipelineSummary(r: PipelineResult): string {
  const count = (st: StageStatus) => r.stages.filter((s) => s.status === st).length;
  const parts = (['done', 'skipped', 'failed', 'unavailable'] as const).filter((st) => count(st) > 0).map((st) => `${count(st)} ${st}`);
  if (r.failure && r.stages.length === 0) return `post-search pipeline: stopped before any stage: ${r.failure}`;
  const head = `post-search pipeline: ${parts.length ? parts.join(', ') : 'no stages'}`;
  return r.failure ? `${head}; it failed: ${r.failure}` : head;
}
