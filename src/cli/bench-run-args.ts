import { jobConfigsOf } from '../bench/jobs/queue.ts';
import { firstRecordError } from '../core/checkpoint/record-errors.ts';
import { InputError } from '../core/errors.ts';
import { readTextOrNull } from '../core/paths.ts';
import { CostEstimateBody, type JobConfigs } from '../schema/bench-api.ts';

/** The flags of `svc bench run` and `svc bench cost` that make a job's configs. */
export const configArgs = {
  config: { type: 'string', description: 'JSON file with rubric_config, reproduce_config and judge_config, as POST /api/bench/run takes them; the flags below win' },
  'rubric-model': { type: 'string', description: 'rubric generator model' },
  'agent-model': { type: 'string', description: 'model of the agent that builds the submission' },
  'time-limit': { type: 'string', description: 'reproduction time limit, seconds' },
  sandbox: { type: 'string', description: 'sandbox kind of the reproduction: local, docker, apptainer, singularity or slurm' },
  image: { type: 'string', description: 'container image of the reproduction' },
  partition: { type: 'string', description: 'Slurm partition of the reproduction' },
  'n-runs': { type: 'string', description: 'judge runs per submission' },
  'judge-model': { type: 'string', description: 'judge model' },
  'code-only': { type: 'boolean', description: 'grade the code-development leaves only' },
} as const;

type ConfigFlags = { config?: string; 'rubric-model'?: string; 'agent-model'?: string; 'time-limit'?: string; sandbox?: string; image?: string; partition?: string; 'n-runs'?: string; 'judge-model'?: string; 'code-only'?: boolean };

/** The configs from --config and the flags, checked as the API checks a run request's. */
export function configsFromArgs(args: ConfigFlags): JobConfigs {
  const body = args.config === undefined ? {} : configFile(args.config);
  const configs = jobConfigsOf(body);
  const set = <T extends object>(target: T, key: keyof T, value: unknown) => {
    if (value !== undefined) (target as Record<keyof T, unknown>)[key] = value;
  };
  set(configs.rubric, 'model', args['rubric-model']);
  set(configs.reproduce, 'model', args['agent-model']);
  set(configs.reproduce, 'time_limit_sec', wholeNumber(args['time-limit'], '--time-limit'));
  set(configs.reproduce, 'sandbox_kind', args.sandbox);
  set(configs.reproduce, 'container_image', args.image);
  set(configs.reproduce, 'partition', args.partition);
  set(configs.judge, 'n_runs', wholeNumber(args['n-runs'], '--n-runs'));
  set(configs.judge, 'model', args['judge-model']);
  set(configs.judge, 'code_only', args['code-only']);
  const problem = firstRecordError(CostEstimateBody, { rubric_config: configs.rubric, reproduce_config: configs.reproduce, judge_config: configs.judge });
  if (problem) throw new InputError(`the run's configs are not valid: ${problem}`, 'see svc bench run --help');
  return configs;
}

function configFile(path: string): Record<string, unknown> {
  const text = readTextOrNull(path);
  if (text === null) throw new InputError(`--config ${path}: no such file`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputError(`--config ${path} is not JSON: ${(err as Error).message}`);
  }
  const problem = firstRecordError(CostEstimateBody, value);
  if (problem) throw new InputError(`--config ${path}: ${problem}`, 'give an object with rubric_config, reproduce_config and judge_config');
  return value as Record<string, unknown>;
}

function wholeNumber(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text.trim())) throw new InputError(`${flag} must be a whole number, got '${text}'`);
  return Number(text.trim());
}
