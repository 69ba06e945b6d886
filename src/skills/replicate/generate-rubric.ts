import { join } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { InputError } from '../../core/errors.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { generateRubric } from '../../replicate/generate.ts';
import { clampLeaves, suggestLeafCount } from '../../replicate/paper.ts';
import { checkpointPath } from '../checkpoint-path.ts';
import { orsSetting, paperArg, roleClient } from './settings.ts';

export const RUBRIC_FILE = 'ors_rubric.json';

export const generateRubricTool = defineTool({
  name: 'generate_rubric',
  description:
    'Make the grading rubric for reproducing the paper, in the shape PaperBench grades: a tree {id, requirements, weight, task_category (leaves: Code Development, Code Execution, Result Analysis), sub_tasks}. ' +
    'Two-stage by default: the top-level axes with weights first, then the leaves of every axis (one call an axis, at once); one call for all when two_stage is false. ' +
    'The generator is SVC_MODEL_RUBRIC_GEN unless model is given; temperature 0 and the seed make it deterministic (the same paper and model give the same rubric and rubric_sha256). ' +
    'Writes the rubric as canonical JSON to output_path (default ors_rubric.json in the checkpoint) and ors_rubric.meta.json beside it ' +
    '{rubric_sha256, model, temperature, seed, two_stage, target_leaf_count, leaf_count, generated_at, paper_sha256}; a malformed answer is asked again once, then an error and nothing written. ' +
    'Returns {rubric_path, meta_path, meta, axes: [{id, weight, leaves}]}.',
  params: toolParams({
    paper_path: T.Optional(T.String({ description: 'the paper (.tex, .md or .pdf): absolute inside the checkpoint, or relative to it' })),
    paper_text: T.Optional(T.String({ description: 'the paper as text, when no paper_path is given' })),
    output_path: T.Optional(T.String({ description: 'where the rubric goes, inside the checkpoint; default ors_rubric.json there' })),
    target_leaf_count: T.Optional(T.Integer({ minimum: 0, description: 'leaves asked for, clamped to 50..400; 0 (default, else SVC_RUBRIC_GEN_TARGET_LEAVES): about one per 75 words of the paper' })),
    model: T.Optional(T.String({ description: 'the generator model; default SVC_MODEL_RUBRIC_GEN' })),
    temperature: T.Optional(T.Number({ minimum: 0, maximum: 2, description: 'default SVC_RUBRIC_GEN_TEMPERATURE, else 0' })),
    seed: T.Optional(T.Integer({ description: 'sent with every request; default 0' })),
    two_stage: T.Optional(T.Boolean({ description: 'axes first, then leaves per axis; default SVC_RUBRIC_GEN_TWO_STAGE, else true' })),
  }),
  timeoutS: 3600,
  run: async (args, ctx) => {
    // paths first: a refused path fails before any model is asked
    const given = args.output_path?.trim();
    const checkpoint = ctx.env.SVC_CHECKPOINT_DIR;
    if (!given && !checkpoint) throw new InputError('no output_path and SVC_CHECKPOINT_DIR is not set', 'give output_path');
    const outputPath = given ? checkpointPath(given, 'output_path', ctx.env) : join(checkpoint as string, RUBRIC_FILE);
    if (!outputPath.endsWith('.json')) throw new InputError(`output_path ${outputPath} does not end in .json`, 'give a .json path such as ors_rubric.json');
    const paper = await paperArg(args, ctx);
    const { cfg, client } = roleClient(ctx, 'rubric_gen', 'SVC_MODEL_RUBRIC_GEN', args.model);
    const asked = args.target_leaf_count ?? Number(orsSetting(cfg, 'ors.rubric_gen_target_leaves') ?? 0);
    const target = asked > 0 ? clampLeaves(asked) : suggestLeafCount(paper.text).target_leaf_count;
    return await generateRubric({
      client,
      paper,
      outputPath,
      targetLeafCount: target,
      temperature: args.temperature ?? Number(orsSetting(cfg, 'ors.rubric_gen_temperature') ?? 0),
      seed: args.seed ?? 0,
      twoStage: args.two_stage ?? (orsSetting(cfg, 'ors.rubric_gen_two_stage') as boolean | null) ?? true,
      signal: ctx.signal,
    });
  },
});

export const suggestTargetLeafCountTool = defineTool({
  name: 'suggest_target_leaf_count',
  description: "How many leaves a rubric of the paper should have: its words / 75, clamped to 50..400; deterministic, no model. Returns {words, target_leaf_count}.",
  params: toolParams({
    paper_path: T.Optional(T.String({ description: 'the paper (.tex, .md or .pdf): absolute inside the checkpoint, or relative to it' })),
    paper_text: T.Optional(T.String({ description: 'the paper as text, when no paper_path is given' })),
  }),
  run: async (args, ctx) => suggestLeafCount((await paperArg(args, ctx)).text),
});
