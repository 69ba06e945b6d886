import { Value } from '@sinclair/typebox/value';
import { readFileSync } from 'node:fs';
import { InvalidRecordError, NotFoundError } from '../core/errors.ts';
import { sha256Hex } from '../core/file-hash.ts';
import { isFileAt } from '../core/paths.ts';
import { isMapping } from '../core/values.ts';
import { canonicalJson } from '../llm/cassette.ts';
import { RubricNode, TASK_CATEGORIES } from '../schema/ors-rubric.ts';

/** A requirement as the model gives it, before the tree is assembled. */
export type Requirement = { id: string; requirements: string; weight: number; task_category?: string };

export function leavesOf(node: RubricNode): RubricNode[] {
  return node.sub_tasks.length === 0 ? [node] : node.sub_tasks.flatMap(leavesOf);
}

/**
 * The bytes the rubric is written as: canonical JSON (sorted keys, no spaces), so that one tree
 * has one digest whatever order its keys were built in.
 */
/** The rubric's leaves, one a line (`- <id>: <requirements>`), as the replicator agent reads what is graded. */
export function leafLines(root: RubricNode): string {
  return leavesOf(root)
    .map((l) => `- ${l.id}: ${l.requirements}`)
    .join('\n');
}

export function rubricBytes(root: RubricNode): Buffer {
  return Buffer.from(`${canonicalJson(root)}\n`);
}

export function rubricSha256(root: RubricNode): string {
  return sha256Hex(rubricBytes(root));
}

/** A rubric file: parsed, checked against the tree's shape, with the digest of its bytes. */
export function readRubric(path: string): { root: RubricNode; sha256: string } {
  if (!isFileAt(path)) throw new NotFoundError(`no rubric at ${path}`, 'make one first (generate_rubric)');
  const bytes = readFileSync(path);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new InvalidRecordError(`the rubric ${path} is not JSON: ${(err as Error).message}`, 'make it again (generate_rubric)');
  }
  if (!Value.Check(RubricNode, value)) {
    const first = [...Value.Errors(RubricNode, value)][0];
    throw new InvalidRecordError(`the rubric ${path} is not a rubric tree: ${first ? `${first.path || '/'} ${first.message}` : 'wrong shape'}`, 'make it again (generate_rubric)');
  }
  return { root: value, sha256: sha256Hex(bytes) };
}

/**
 * What is wrong with a list of requirements in a model's answer, or null: each needs a
 * requirement text and a positive weight, leaves a task category, and the list at least `min`.
 */
export function requirementsProblem(list: unknown, what: string, opts: { leaves: boolean; min: number }): string | null {
  if (!Array.isArray(list)) return `${what} is not an array`;
  if (list.length < opts.min) return `${what} has ${list.length} entries, at least ${opts.min} are needed`;
  for (const [i, r] of list.entries()) {
    if (!isMapping(r)) return `${what}[${i}] is not an object`;
    if (typeof r.requirements !== 'string' || r.requirements.trim() === '') return `${what}[${i}].requirements is not a non-empty string`;
    if (typeof r.weight !== 'number' || !Number.isFinite(r.weight) || r.weight <= 0) return `${what}[${i}].weight is not a positive number`;
    if (opts.leaves && !knownCategory(r.task_category)) return `${what}[${i}].task_category is not one of ${TASK_CATEGORIES.join(', ')}`;
  }
  return null;
}

/** One of the three categories in its usual spelling, whatever the case the model wrote it in. */
function knownCategory(v: unknown): string | undefined {
  const category = typeof v === 'string' ? v.trim().toLowerCase() : undefined;
  return category ? TASK_CATEGORIES.find((c) => c.toLowerCase() === category) : undefined;
}

/** The requirement's fields as the tree keeps them; a leaf's category is one of the three (requirementsProblem refuses others). */
export function requirementOf(r: Record<string, unknown>): Requirement {
  const category = knownCategory(r.task_category);
  return {
    id: typeof r.id === 'string' ? r.id : '',
    requirements: String(r.requirements).trim(),
    weight: Number(r.weight),
    ...(category ? { task_category: category } : {}),
  };
}

/**
 * The tree: a root over the axes, the axes over their leaves. Ids are the model's, made safe and
 * unique (a leaf's under its axis's), since a grade refers to leaves by id.
 */
export function assembleRubric(axes: { axis: Requirement; leaves: Requirement[] }[]): RubricNode {
  const axisIds = new Set<string>();
  return {
    id: 'root',
    requirements: "The paper's results are reproduced: its code developed, run, and its results matched.",
    weight: 1,
    sub_tasks: axes.map(({ axis, leaves }, i) => {
      const id = uniqueId(slug(axis.id) || `axis-${i + 1}`, axisIds);
      const leafIds = new Set<string>();
      return {
        id,
        requirements: axis.requirements,
        weight: axis.weight,
        sub_tasks: leaves.map((l, j) => ({
          id: `${id}/${uniqueId(slug(l.id) || `leaf-${j + 1}`, leafIds)}`,
          requirements: l.requirements,
          weight: l.weight,
          task_category: l.task_category ?? 'Code Development',
          sub_tasks: [],
        })),
      };
    }),
  };
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
}

function uniqueId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}
