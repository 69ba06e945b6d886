import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
// imported once, as text: the bundler embeds a file imported both as data and as text only once
import bundledText from '../../../workflow.yaml' with { type: 'text' };
import { type Stage, Workflow } from '../../schema/workflow.ts';
import { InputError } from '../errors.ts';
import type { Env } from './env-vars.ts';
import { expandEnv } from './expand-env.ts';
import { parseYamlFile } from './yaml.ts';
import { keyPath } from '../key-path.ts';
import { isMapping } from '../values.ts';

export const BUNDLED_WORKFLOW_TEXT: string = bundledText as unknown as string;
export const BUNDLED = '(bundled workflow.yaml)';

export type WorkflowSource = 'checkpoint' | 'config' | 'bundled';
export type LoadedWorkflow = {
  workflow: Workflow;
  /** file the workflow came from; BUNDLED for the embedded default */
  path: string;
  source: WorkflowSource;
  /** a --config that a checkpoint copy took precedence over */
  ignoredConfig?: string;
};

/** Which workflow applies: the checkpoint's copy, then --config, then the bundled default. */
export function locateWorkflow(opts: { checkpointDir?: string; configPath?: string }): { path: string; source: WorkflowSource; ignoredConfig?: string } {
  const config = opts.configPath ? resolve(opts.configPath) : undefined;
  if (config && !existsSync(config)) {
    throw new InputError(`workflow file ${config} does not exist`, 'check the --config path');
  }
  if (opts.checkpointDir) {
    const copy = join(opts.checkpointDir, 'workflow.yaml');
    if (existsSync(copy)) return config ? { path: copy, source: 'checkpoint', ignoredConfig: config } : { path: copy, source: 'checkpoint' };
  }
  if (config) return { path: config, source: 'config' };
  return { path: BUNDLED, source: 'bundled' };
}

export function loadWorkflow(opts: { checkpointDir?: string; configPath?: string; env: Env }): LoadedWorkflow {
  const where = locateWorkflow(opts);
  const workflow = where.path === BUNDLED ? bundledWorkflow() : parseWorkflow(readText(where.path), where.path, opts.env);
  return { ...where, workflow };
}

let bundledCache: Workflow | undefined;
/** The embedded default, parsed (with Bun's native YAML parser: well under a millisecond) and checked once per process. */
export function bundledWorkflow(): Workflow {
  bundledCache ??= checkWorkflow(Bun.YAML.parse(BUNDLED_WORKFLOW_TEXT), BUNDLED, {});
  return structuredClone(bundledCache);
}

/**
 * Parse a workflow file, lay it over the bundled default and check it. Every failure is one
 * InputError naming the file and the key (or line, for YAML syntax).
 */
export function parseWorkflow(text: string, file: string, env: Env): Workflow {
  return checkWorkflow(parseYamlFile(text, file), file, env);
}

function checkWorkflow(raw: unknown, file: string, env: Env): Workflow {
  if (raw === null || raw === undefined) return file === BUNDLED ? invalid(file, '', 'is empty') : bundledWorkflow();
  if (typeof raw !== 'object' || Array.isArray(raw)) return invalid(file, '', 'must be a mapping of keys');
  const expanded = expandEnv(normalizeLegacy(raw as Record<string, unknown>), env);
  // `cpus: ${CPUS:-8}` expands to the string "8"; the schema says where a number is meant
  const merged = Value.Convert(Workflow, file === BUNDLED ? expanded : deepMerge(bundledWorkflow(), expanded));
  checkSchema(merged, file);
  const wf = merged as Workflow;
  checkStages(wf, file);
  return wf;
}

function checkSchema(value: unknown, file: string): void {
  const first = Value.Errors(Workflow, value).First();
  if (!first) return;
  const choices = literalChoices(first.schema);
  const got = first.value === undefined ? 'nothing' : JSON.stringify(first.value);
  const why = choices ? `must be one of ${choices.values.join(', ')}${choices.list ? ', or a list of them' : ''} (got ${got})` : `${first.message.toLowerCase()} (got ${got})`;
  invalid(file, keyPath(first.path), why);
}

/** The literals a union of literals allows (also inside `literal | literal[]`), or undefined. */
function literalChoices(schema: TSchema): { values: string[]; list: boolean } | undefined {
  const s = schema as { anyOf?: TSchema[]; const?: unknown; type?: string; items?: TSchema };
  if (s.const !== undefined) return { values: [String(s.const)], list: false };
  if (s.type === 'array' && s.items) {
    const inner = literalChoices(s.items);
    return inner && { values: inner.values, list: true };
  }
  if (!s.anyOf) return undefined;
  const parts = s.anyOf.map(literalChoices);
  if (parts.some((p) => !p)) return undefined;
  return { values: [...new Set(parts.flatMap((p) => p?.values ?? []))], list: parts.some((p) => p?.list) };
}

/**
 * Stage names unique per list among enabled stages (a disabled entry may keep another variant of a
 * stage at hand); depends_on names a stage above it, which also rules out cycles; loop_back_to
 * names this stage or one above it in the same list.
 */
function checkStages(wf: Workflow, file: string): void {
  for (const list of ['bfts_pipeline', 'pipeline'] as const) {
    const stages: Stage[] = wf[list];
    const all = new Set(stages.map((s) => s.stage));
    const known = [...all].join(', ');
    const above = new Set<string>();
    const enabled = new Set<string>();
    stages.forEach((s, i) => {
      if (s.enabled !== false) {
        if (enabled.has(s.stage)) invalid(file, `${list}[${i}].stage`, `'${s.stage}' is already an enabled stage above`);
        enabled.add(s.stage);
      }
      for (const dep of dependsOn(s)) {
        if (!all.has(dep)) invalid(file, `${list}[${i}].depends_on`, `unknown stage '${dep}' (stages: ${known})`);
        if (!above.has(dep)) invalid(file, `${list}[${i}].depends_on`, `'${dep}' is not above '${s.stage}'; stages run in file order`);
      }
      if (s.loop_back_to && !all.has(s.loop_back_to)) {
        invalid(file, `${list}[${i}].loop_back_to`, `unknown stage '${s.loop_back_to}' (stages: ${known})`);
      }
      // a loop runs stages again: its target is this stage or one above it
      if (s.loop_back_to && s.loop_back_to !== s.stage && !above.has(s.loop_back_to)) {
        invalid(file, `${list}[${i}].loop_back_to`, `'${s.loop_back_to}' is not above '${s.stage}'; a loop goes back to an earlier stage`);
      }
      above.add(s.stage);
    });
  }
}

export function dependsOn(stage: Stage): string[] {
  const d = stage.depends_on;
  return d === undefined ? [] : typeof d === 'string' ? [d] : d;
}

function invalid(file: string, key: string, why: string): never {
  throw new InputError(`${file}: ${key ? `${key}: ` : ''}${why}`, 'fix the workflow file');
}

/** Workflow files written by the reference implementation use older names for two blocks. */
function normalizeLegacy(raw: Record<string, unknown>): Record<string, unknown> {
  const out = { ...raw };
  const retrieval = out.retrieval as Record<string, unknown> | undefined;
  if (retrieval && typeof retrieval === 'object') {
    const legacy: Record<string, string> = { semantic_scholar: 'scholar_a', alphaxiv: 'scholar_b' };
    const b = retrieval.backend;
    if (typeof b === 'string' && legacy[b]) out.retrieval = { ...retrieval, backend: legacy[b] };
  }
  const memory = out.memory as Record<string, unknown> | undefined;
  if (memory && typeof memory === 'object' && 'letta' in memory && !('membackend' in memory)) {
    const { letta, ...rest } = memory;
    out.memory = { ...rest, membackend: letta };
  }
  return out;
}

/** Mappings merge key by key; lists and scalars from `over` replace those in `base`. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isMapping(base) || !isMapping(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = deepMerge(base[k], v);
  return out;
}

function readText(path: string): string {
  try {
    if (statSync(path).isDirectory()) throw new InputError(`${path} is a directory, not a workflow file`);
    return readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`cannot read ${path}: ${(err as Error).message}`);
  }
}
