import { Value } from '@sinclair/typebox/value';
import { InputError } from '../../core/errors.ts';
import { readRubric, rubricSha256 } from '../../replicate/rubric.ts';
import { RubricNode } from '../../schema/ors-rubric.ts';

/** A rubric given to the bridge: the path of its file, or the tree itself. */
export type RubricArg = string | RubricNode;

export function bridgeRubric(rubric: RubricArg): { root: RubricNode; sha256: string } {
  if (typeof rubric === 'string') return readRubric(rubric);
  if (!Value.Check(RubricNode, rubric)) {
    const first = [...Value.Errors(RubricNode, rubric)][0];
    throw new InputError(`rubric is not a rubric tree: ${first ? `${first.path || '/'} ${first.message}` : 'wrong shape'}`, 'give the path of rubric.json or the tree generate_rubric wrote');
  }
  return { root: rubric, sha256: rubricSha256(rubric) };
}
