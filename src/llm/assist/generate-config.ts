import { stringify } from 'yaml';
import type { Env } from '../../core/config/env-vars.ts';
import { parseWorkflow } from '../../core/config/workflow.ts';
import { InputError } from '../../core/errors.ts';
import { isMapping } from '../../core/values.ts';
import type { Workflow } from '../../schema/workflow.ts';
import type { ModelClient } from '../client.ts';

export type GeneratedConfig = { yaml: string; workflow: Workflow; model: string };

/** The keys a generated file may set; everything else keeps the bundled default. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  llm: ['backend', 'model', 'base_url'],
  resources: ['cpus', 'timeout_minutes', 'executor'],
  bfts: ['max_nodes', 'max_depth', 'parallel', 'max_react', 'timeout_node', 'frontier_score'],
  container: ['mode', 'image', 'pull'],
  retrieval: ['backend'],
};
const ALLOWED_TOP = ['author_name'];
const GENERATED = '(generated configuration)';
const MAX_ANSWERS_BYTES = 64 * 1024;

const INSTRUCTIONS = `You choose settings of an automated research system from a researcher's answers.
Answer with a JSON object that may set only these keys (leave out what the answers do not decide):
${Object.entries(ALLOWED)
  .map(([k, keys]) => `- ${k}: ${keys.join(', ')}`)
  .join('\n')}
- author_name (string)
resources.executor is one of local, slurm, pbs, lsf; container.mode one of auto, docker, singularity, apptainer, none; bfts.frontier_score one of scientific_plus_diversity, scientific_only, depth_penalized, ucb_like. Numbers are plain numbers.`;

/**
 * A workflow file from the wizard's answers: the model proposes values for a fixed set of keys,
 * each proposal is checked the way a run checks a workflow file (a rejected one is sent back with
 * the reason), and the result is returned as YAML to review and save.
 */
export async function generateConfig(client: ModelClient, answers: unknown, env: Env, signal?: AbortSignal): Promise<GeneratedConfig> {
  if (!isMapping(answers)) throw new InputError('answers must be an object of question: answer', 'send the wizard answers as {answers: {...}}');
  const text = JSON.stringify(answers);
  if (Object.keys(answers).length === 0) throw new InputError('answers is empty', 'send the wizard answers as {answers: {...}}');
  if (text.length > MAX_ANSWERS_BYTES) throw new InputError(`answers are ${text.length} bytes; at most ${MAX_ANSWERS_BYTES}`);
  let workflow: Workflow | null = null;
  const check = (v: unknown): string | null => {
    const problem = onlyAllowed(v);
    if (problem) return problem;
    try {
      workflow = parseWorkflow(stringify(v), GENERATED, env);
      return null;
    } catch (err) {
      return (err as Error).message.replace(`${GENERATED}: `, '');
    }
  };
  const value = await client.completeJson<Record<string, unknown>>(
    { role: 'run', messages: [{ role: 'system', content: INSTRUCTIONS }, { role: 'user', content: `Answers:\n${text}` }], temperature: 0, meta: { phase: 'wizard', component: 'generate_config' }, signal },
    check,
  );
  const header = '# Generated from the setup wizard; keys not listed keep the bundled defaults.\n';
  return { yaml: header + stringify(value), workflow: workflow as unknown as Workflow, model: client.choice('run').model };
}

function onlyAllowed(v: unknown): string | null {
  if (!isMapping(v)) return 'the answer must be a JSON object';
  for (const [key, inner] of Object.entries(v)) {
    if (ALLOWED_TOP.includes(key)) continue;
    const keys = Object.hasOwn(ALLOWED, key) ? ALLOWED[key] : undefined;
    if (!keys) return `key '${key}' may not be set (allowed: ${[...Object.keys(ALLOWED), ...ALLOWED_TOP].join(', ')})`;
    if (!isMapping(inner)) return `'${key}' must be an object`;
    const extra = Object.keys(inner).find((k) => !keys.includes(k));
    if (extra) return `key '${key}.${extra}' may not be set (allowed under ${key}: ${keys.join(', ')})`;
  }
  return null;
}
