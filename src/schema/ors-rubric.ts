import { type Static, Type as T } from '@sinclair/typebox';

/**
 * A reproduction rubric as PaperBench grades one: a tree of requirements, each weighted against its
 * siblings. Leaves carry a task_category and no sub_tasks; an inner node's score is the weighted
 * mean of its children's, so only the ratios of sibling weights matter.
 */
export const RubricNode = T.Recursive(
  (Self) =>
    T.Object(
      {
        id: T.String({ minLength: 1, maxLength: 200 }),
        requirements: T.String({ minLength: 1, description: 'what a reproduction must do or show, checkable by a grader' }),
        weight: T.Number({ exclusiveMinimum: 0 }),
        task_category: T.Optional(T.String({ minLength: 1, description: 'leaves: Code Development, Code Execution or Result Analysis' })),
        sub_tasks: T.Array(Self),
      },
      { additionalProperties: false },
    ),
  { $id: 'OrsRubricNode' },
);
export type RubricNode = Static<typeof RubricNode>;

export const TASK_CATEGORIES = ['Code Development', 'Code Execution', 'Result Analysis'] as const;

/** ors_rubric.meta.json: how the rubric beside it was made, and the digest of its bytes. */
export type RubricMeta = {
  rubric_sha256: string;
  model: string;
  temperature: number;
  seed: number;
  two_stage: boolean;
  target_leaf_count: number;
  leaf_count: number;
  generated_at: string;
  paper_sha256: string;
};
