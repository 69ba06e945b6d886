/**
 * Image tools: each submits a Slurm job whose script runs apptainer (or singularity) and returns
 * {job_id, status, partition, runtime}; job_status follows the job. Image and definition files are
 * paths inside the work directory, as for the coding tools.
 */
import { isAbsolute } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { writeFileAtomic } from '../../core/atomic.ts';
import { InputError } from '../../core/errors.ts';
import { isFileAt } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { containerCommand, pullCommand } from '../../sandbox/container.ts';
import { shellQuote } from '../../sandbox/job-state.ts';
import { checkGpuRequest } from '../../sandbox/preconditions.ts';
import { defineTool, toolParams, type ToolContext } from '../../mcp/tool.ts';
import { fileInWorkDir, WorkDirParam } from '../../coding/work-dir.ts';
import { DEFAULT_WALLTIME, NodesParam, PartitionParam, submitToSlurm, WalltimeParam, walltimeSeconds, withDirectives } from './cluster.ts';
import { type ImageRuntime, requireRuntime, runtimeOrFallback } from './image-runtime.ts';

const OutputParam = T.String({ description: 'the .sif file to write, relative to SVC_WORK_DIR; replaced when it exists' });
const ImageParam = T.String({ description: 'the .sif image, relative to work_dir' });
const CommandParam = T.String({ description: 'shell command run in the container with bash -lc, in work_dir (mounted at the same path)' });

const script = (argv: string[], directives: string[] = []): string => withDirectives(argv.map(shellQuote).join(' '), directives);

type ImageJob = { tool: string; out: { dir: string }; argv: (runtime: ImageRuntime) => string[]; partition?: string; wallTimeS?: number };

/** A build or pull: the runtime's command as a Slurm job in the output's directory. */
async function submitImageJob(job: ImageJob, env: ToolContext['env']) {
  const runtime = requireRuntime(job.tool, env);
  const spec = { script: script(job.argv(runtime)), workDir: job.out.dir, name: job.tool.replaceAll('_', '-'), wallTimeS: job.wallTimeS ?? walltimeSeconds(DEFAULT_WALLTIME) };
  return { ...(await submitToSlurm(spec, job.partition, env)), runtime };
}

export const singularityBuild = defineTool({
  name: 'singularity_build',
  description: 'Build a .sif image from a definition file as a Slurm job (apptainer build --force). Returns {job_id, status, partition, runtime}.',
  params: toolParams({ definition_file: T.String({ description: 'the definition (.def) file, relative to SVC_WORK_DIR' }), output_path: OutputParam, partition: PartitionParam }),
  async run(args, ctx) {
    const def = fileInWorkDir(args.definition_file, 'definition_file', undefined, ctx.env);
    if (!isFileAt(def.path)) throw new InputError(`definition_file '${printable(args.definition_file)}' is not a file in the work directory`);
    const out = fileInWorkDir(args.output_path, 'output_path', undefined, ctx.env);
    return submitImageJob({ tool: 'singularity_build', out, argv: (rt) => [rt, 'build', '--force', out.path, def.path], partition: args.partition }, ctx.env);
  },
});

export const singularityBuildFakeroot = defineTool({
  name: 'singularity_build_fakeroot',
  description: 'Build a .sif image without root from definition text as a Slurm job (apptainer build --fakeroot); the text is saved as <output_path>.def. Returns {job_id, status, partition, runtime, definition_path}.',
  params: toolParams({ definition_content: T.String({ description: 'the definition file text (Bootstrap: ..., %post ...)' }), output_path: OutputParam, partition: PartitionParam, walltime: WalltimeParam }),
  async run(args, ctx) {
    if (args.definition_content.trim() === '') throw new InputError('definition_content is empty', 'give the definition file text');
    const out = fileInWorkDir(args.output_path, 'output_path', undefined, ctx.env);
    const def = fileInWorkDir(`${args.output_path}.def`, 'output_path', undefined, ctx.env);
    const wallTimeS = walltimeSeconds(args.walltime);
    const tool = 'singularity_build_fakeroot';
    requireRuntime(tool, ctx.env); // before the definition is written: no runtime leaves nothing behind
    writeFileAtomic(def.path, args.definition_content);
    const argv = (rt: ImageRuntime) => [rt, 'build', '--fakeroot', '--force', out.path, def.path];
    return { ...(await submitImageJob({ tool, out, argv, partition: args.partition, wallTimeS }, ctx.env)), definition_path: def.path };
  },
});

export const singularityPull = defineTool({
  name: 'singularity_pull',
  description: 'Pull an image into a .sif file as a Slurm job (apptainer pull --force); a bare name is taken from Docker Hub. Returns {job_id, status, partition, runtime}.',
  params: toolParams({ source: T.String({ description: 'docker://..., library://..., oras://... or a Docker Hub name' }), output_path: OutputParam, partition: PartitionParam }),
  async run(args, ctx) {
    if (args.source.trim() === '') throw new InputError('source is empty', 'give the image to pull, e.g. docker://python:3.12-slim');
    const out = fileInWorkDir(args.output_path, 'output_path', undefined, ctx.env);
    return submitImageJob({ tool: 'singularity_pull', out, argv: (rt) => pullCommand(rt, args.source.trim(), out.path), partition: args.partition }, ctx.env);
  },
});

export const singularityRun = defineTool({
  name: 'singularity_run',
  description: 'Run a command in a .sif image as a Slurm job (apptainer exec, work_dir bound). Returns {job_id, status, partition, runtime}; runtime null and a warning when it ran without a container (SVC_PHASE1_ALLOW_FALLBACK=1).',
  params: toolParams({ image_path: ImageParam, command: CommandParam, work_dir: WorkDirParam, partition: PartitionParam, nodes: NodesParam, walltime: WalltimeParam }),
  async run(args, ctx) {
    const run = imageRun(args, ctx.env, 'singularity_run');
    const job = { script: script(run.argv, [`--nodes=${args.nodes}`]), workDir: run.workDir, name: 'singularity-run', wallTimeS: walltimeSeconds(args.walltime) };
    return { ...(await submitToSlurm(job, args.partition, ctx.env, run.warnings)), runtime: run.runtime };
  },
});

export const singularityRunGpu = defineTool({
  name: 'singularity_run_gpu',
  description:
    'Run a command in a .sif image on GPUs as a Slurm job (apptainer exec --nv, --gres). A cluster without generic resources is refused unless SVC_SLURM_ALLOW_NO_GRES=1, which drops the GPU request. Returns {job_id, status, partition, runtime, warnings}.',
  params: toolParams({
    image_path: ImageParam,
    command: CommandParam,
    work_dir: WorkDirParam,
    partition: PartitionParam,
    gres: T.String({ default: 'gpu:1', pattern: '^gpu(:[\\w.-]+)?(:\\d+)?$', description: 'generic resources per node, gpu[:type][:count] (default gpu:1)' }),
    cpus_per_task: T.Integer({ default: 8, minimum: 1, maximum: 4096, description: 'CPUs per task (default 8)' }),
    walltime: WalltimeParam,
    bind_paths: T.Optional(T.String({ description: 'comma-separated absolute host paths also mounted at the same path' })),
  }),
  async run(args, ctx) {
    const wallTimeS = walltimeSeconds(args.walltime);
    const gpu = await checkGpuRequest(gpuCount(args.gres), ctx.env);
    const run = imageRun({ ...args, gpu: gpu.gpus > 0 }, ctx.env, 'singularity_run_gpu');
    const directives = gpu.gpus > 0 ? [`--gres=${args.gres}`] : [];
    const job = { script: script(run.argv, directives), workDir: run.workDir, name: 'singularity-gpu', wallTimeS, cpus: args.cpus_per_task };
    const warnings = [...(gpu.warning ? [gpu.warning] : []), ...run.warnings];
    return { ...(await submitToSlurm(job, args.partition, ctx.env, warnings)), runtime: run.runtime };
  },
});

type RunArgs = { image_path: string; command: string; work_dir?: string; gpu?: boolean; bind_paths?: string };

/** The argv of the job: the command in the image, or with the override and no runtime, bare. */
function imageRun(args: RunArgs, env: ToolContext['env'], tool: string) {
  if (args.command.trim() === '') throw new InputError('command is empty', 'give the shell command to run in the container');
  const image = fileInWorkDir(args.image_path, 'image_path', args.work_dir, env);
  const binds = bindPaths(args.bind_paths);
  const found = runtimeOrFallback(tool, env);
  if (found.runtime === null) return { argv: ['bash', '-lc', args.command], workDir: image.dir, runtime: null, warnings: [found.warning] };
  if (!isFileAt(image.path)) throw new InputError(`image_path '${printable(args.image_path)}' is not a file in the work directory`, 'build or pull the image first');
  const argv = containerCommand({ runtime: found.runtime, image: image.path, workDir: image.dir, command: args.command, gpu: args.gpu === true, binds });
  return { argv, workDir: image.dir, runtime: found.runtime, warnings: [] };
}

function bindPaths(list: string | undefined): string[] {
  const paths = (list ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
  const bad = paths.find((p) => !isAbsolute(p) || p.includes(':'));
  if (bad !== undefined) throw new InputError(`bind path '${printable(bad)}' is not an absolute path without ':'`, 'give absolute host directories, comma-separated');
  return paths;
}

/** The count of gpu[:type][:count]; 1 when none is given. */
function gpuCount(gres: string): number {
  const last = gres.split(':').at(-1) ?? '';
  return /^\d+$/.test(last) && gres.includes(':') ? Number(last) : 1;
}
