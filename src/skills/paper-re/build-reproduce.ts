import { join } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { envValue } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { buildReproduce, DEFAULT_MAX_STEPS, RECORD_FILE } from '../../replicator/build.ts';
import { BUILD_SANDBOX_KINDS, buildSandbox } from '../../replicator/sandbox.ts';
import { leafLines, readRubric } from '../../replicate/rubric.ts';
import { checkpointPath } from '../checkpoint-path.ts';
import { paperArg, roleClient } from '../replicate/settings.ts';
import { localCodingTools } from '../../replicator/coding-tools.ts';

/** Where the seed stage puts the verified bundle, and so where the agent builds. */
export const REPRO_SANDBOX_DIR = 'repro_sandbox';

export const buildReproduceShTool = defineTool({
  name: 'build_reproduce_sh',
  description:
    'An agent (the replicate model, SVC_MODEL_REPLICATE unless model is given) builds a repository with reproduce.sh from the paper and the code bundle in output_dir (default repro_sandbox in the checkpoint), ' +
    'calling the coding tools (read_file, write_code, run_code, run_bash) there until reproduce.sh re-runs the reported experiments and prints their numbers. ' +
    'reproduce.sh goes at the submission root: output_dir, or a nested submission/ directory when the agent builds there. ' +
    'The build stops when time_limit_sec is spent (timed_out, and no reproduce.sh is claimed). iterative_agent false: one planning answer, then build, run once and finish (max_steps 0 means ' +
    `${DEFAULT_MAX_STEPS}); true: keep improving until the agent finishes or the time is spent. An existing reproduce.sh is kept ({skipped: true, reason}) unless overwrite. ` +
    `Writes ${RECORD_FILE} in the checkpoint and returns {output_dir, submission_root, reproduce_sh, steps, finished, timed_out, elapsed_sec, files_written, model, sandbox_kind, record_path}; ` +
    'files_written lists the files of output_dir the build added or changed; an agent that ends without its own reproduce.sh is an error. apply_patch and applypatch (a unified diff from a file or stdin) are on the agent\'s PATH.',
  params: toolParams({
    paper_path: T.Optional(T.String({ description: 'the paper (.tex, .md or .pdf): absolute inside the checkpoint, or relative to it' })),
    paper_text: T.Optional(T.String({ description: 'the paper as text, when no paper_path is given' })),
    rubric_path: T.Optional(T.String({ description: 'the rubric (ors_rubric.json) inside the checkpoint; its leaves tell the agent what is graded' })),
    output_dir: T.Optional(T.String({ description: `the repository directory inside the checkpoint; default ${REPRO_SANDBOX_DIR} there` })),
    model: T.Optional(T.String({ description: 'the replicator model; default SVC_MODEL_REPLICATE' })),
    time_limit_sec: T.Number({ default: 43200, exclusiveMinimum: 0, description: 'wall-clock seconds for the whole build (default 43200)' }),
    iterative_agent: T.Boolean({ default: false, description: 'keep improving until the agent finishes or the time is spent; false: plan once, build, run, finish' }),
    max_steps: T.Integer({ default: 0, minimum: 0, description: 'model answers at most; 0: the default of the mode' }),
    sandbox_kind: T.String({ default: 'auto', description: `where run_code and run_bash run: ${BUILD_SANDBOX_KINDS.join(', ')}; auto is docker with container_image, apptainer with apptainer_image, else local; a missing runtime fails unless SVC_PHASE1_ALLOW_FALLBACK=1` }),
    container_image: T.Optional(T.String({ description: 'the docker image the agent\'s commands run in (present already; no network)' })),
    apptainer_image: T.Optional(T.String({ description: 'the Apptainer/Singularity image (.sif or URI) the agent\'s commands run in' })),
    overwrite: T.Boolean({ default: false, description: 'replace an existing reproduce.sh at the submission root' }),
  }),
  timeoutS: 43200 + 600,
  run: async (args, ctx) => {
    // paths first: a refused path fails before any model is asked
    const checkpoint = envValue(ctx.env, 'SVC_CHECKPOINT_DIR');
    if (checkpoint === null) throw new InputError('SVC_CHECKPOINT_DIR is not set: the build and its record belong to a run checkpoint', 'run it in a checkpoint');
    const outputDir = args.output_dir?.trim() ? checkpointPath(args.output_dir, 'output_dir', ctx.env) : join(checkpoint, REPRO_SANDBOX_DIR);
    const rubric = args.rubric_path?.trim() ? leafLines(readRubric(checkpointPath(args.rubric_path, 'rubric_path', ctx.env)).root) : '';
    const { client } = roleClient(ctx, 'replicate', 'SVC_MODEL_REPLICATE', args.model);
    const paper = await paperArg(args, ctx);
    const sandbox = await buildSandbox(args.sandbox_kind, args.container_image?.trim() || undefined, args.apptainer_image?.trim() || undefined, ctx.env);
    return await buildReproduce({
      client,
      model: client.choice('replicate').model,
      paper,
      rubric,
      checkpoint,
      outputDir,
      timeLimitSec: args.time_limit_sec,
      iterative: args.iterative_agent,
      maxSteps: args.max_steps,
      overwrite: args.overwrite,
      sandbox,
      tools: (dir, signal, binDir, exec) => localCodingTools(ctx.env, dir, signal, binDir, exec),
      signal: ctx.signal,
    });
  },
});
