/**
 * Stage 1 of the bridge: an agent builds the submission (reproduce.sh and what it runs) in
 * work_dir from the paper, in the build sandbox, with its env file, HF_TOKEN and the forbidden URLs
 * given to its commands (bridge rules 4–6).
 */
import { dirname } from 'node:path';
import type { Env } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';
import { printable } from '../../core/text.ts';
import type { PaperSource } from '../../replicate/paper.ts';
import { leafLines } from '../../replicate/rubric.ts';
import { type BuildResult, buildReproduce, type Skipped } from '../../replicator/build.ts';
import { localCodingTools } from '../../replicator/coding-tools.ts';
import { buildSandbox } from '../../replicator/sandbox.ts';
import { DEFAULT_TIME_LIMIT_SEC } from '../defaults.ts';
import { agentEnvironment } from './agent-env.ts';
import { HOST_FILESYSTEM_REFUSAL } from './host-filesystem.ts';
import { stageClient } from './model.ts';
import { bridgePaper } from './paper.ts';
import { bridgeRubric, type RubricArg } from './rubric.ts';

/** How the forbidden URLs reach the agent's commands: one a line (a URL may hold a comma, never a line break). */
export const BLACKLIST_VARIABLE = 'SVC_BLACKLIST_URLS';

export type RolloutParams = {
  paper_md?: string;
  paper?: PaperSource;
  /** the repository directory the agent builds in */
  work_dir: string;
  /** where ors_replicator.json and the cost ledger go; default the parent of work_dir */
  checkpoint_dir?: string;
  agent_model?: string;
  /** auto (default), local, docker, apptainer, singularity; slurm builds on this host, as the agent's commands are short (the reproduction is the Slurm job) */
  sandbox_kind?: string;
  container_image?: string;
  iterative_agent?: boolean;
  max_steps?: number;
  env: Env;
  agent_env_path?: string;
  forbid_host_filesystem?: boolean;
  blacklist_urls?: string[];
  time_limit_sec?: number;
  /** the rubric (path or tree) whose leaves tell the agent what is graded */
  rubric?: RubricArg;
  /** replace a reproduce.sh already at the submission root; default false */
  overwrite?: boolean;
  signal?: AbortSignal;
};

export async function rolloutSubmission(p: RolloutParams): Promise<BuildResult | Skipped> {
  // everything that can be refused is, before a model is asked
  const asked = p.sandbox_kind?.trim() || 'auto';
  if (p.forbid_host_filesystem && (HOST_FILESYSTEM_REFUSAL.kinds as readonly string[]).includes(asked)) {
    throw new InputError(`sandbox_kind ${asked} is refused: ${HOST_FILESYSTEM_REFUSAL.why}`, HOST_FILESYSTEM_REFUSAL.hint);
  }
  const timeLimit = p.time_limit_sec ?? DEFAULT_TIME_LIMIT_SEC;
  if (!(timeLimit > 0)) throw new InputError(`time_limit_sec ${timeLimit} is not a positive number of seconds`, `give seconds, such as ${DEFAULT_TIME_LIMIT_SEC}`);
  const blacklist = checkedUrls(p.blacklist_urls ?? []);
  const agentEnv = agentEnvironment(p.agent_env_path, p.env);
  const rubric = p.rubric === undefined ? '' : leafLines(bridgeRubric(p.rubric).root);
  const paper = await bridgePaper(p, p.env);
  const image = p.container_image?.trim() || undefined;
  const sandbox = await buildSandbox(asked === 'slurm' ? 'local' : asked, image, undefined, p.env);
  if (p.forbid_host_filesystem && sandbox.kind === 'local') {
    throw new InputError(`the build would run on this host (sandbox_kind ${asked}${sandbox.warning ? `: ${sandbox.warning}` : ''}), which forbid_host_filesystem refuses`, HOST_FILESYSTEM_REFUSAL.hint);
  }
  const checkpoint = p.checkpoint_dir ?? dirname(p.work_dir);
  const client = stageClient(p.env, 'replicate', 'SVC_MODEL_REPLICATE', p.agent_model, checkpoint);
  const granted = { ...agentEnv.vars, ...(blacklist.length ? { [BLACKLIST_VARIABLE]: blacklist.join('\n') } : {}) };
  return buildReproduce({
    client,
    model: client.choice('replicate').model,
    paper,
    rubric,
    checkpoint,
    outputDir: p.work_dir,
    timeLimitSec: timeLimit,
    iterative: p.iterative_agent ?? false,
    maxSteps: p.max_steps ?? 0,
    overwrite: p.overwrite ?? false,
    sandbox,
    // a container gets the granted variables by name, from its client's environment
    tools: (dir, signal, binDir, exec) => localCodingTools(p.env, dir, signal, binDir, exec?.container ? { ...exec, container: { ...exec.container, passEnv: Object.keys(granted) } } : exec, granted),
    blacklistUrls: blacklist,
    signal: p.signal ?? new AbortController().signal,
  });
}

/** Each forbidden URL one line of text: a line break would split it in SVC_BLACKLIST_URLS. */
function checkedUrls(urls: string[]): string[] {
  const kept = urls.map((u) => u.trim()).filter((u) => u !== '');
  const bad = kept.find((u) => /[\s\p{Cc}]/u.test(u));
  if (bad !== undefined) throw new InputError(`blacklist_urls entry '${printable(bad)}' holds whitespace`, 'give one URL an entry');
  return kept;
}
