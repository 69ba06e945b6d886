import { type Static, Type as T } from '@sinclair/typebox';

/** Names a review record uses as keys; `_` starts metadata keys such as `_source`. */
const KeyName = T.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]*$', maxLength: 64 });

export const ScoreDimension = T.Object(
  {
    name: KeyName,
    scale: T.Tuple([T.Number(), T.Number()], { description: '[lowest, highest] score, both inclusive' }),
    description: T.String({ minLength: 1 }),
  },
  { additionalProperties: true },
);

export const TextSection = T.Object({ name: KeyName, required: T.Boolean() }, { additionalProperties: true });

export const RubricParams = T.Object(
  {
    num_reflections: T.Integer({ minimum: 0, maximum: 20 }),
    num_fs_examples: T.Integer({ minimum: 0, maximum: 20 }),
    num_reviews_ensemble: T.Integer({ minimum: 1, maximum: 20 }),
    temperature: T.Number({ minimum: 0, maximum: 2 }),
    score_threshold_decision: T.Number({ description: 'score of threshold_dimension at or above which the review leans to the first decision option' }),
    fewshot_mode: T.Union([T.Literal('static'), T.Literal('dynamic')]),
  },
  { additionalProperties: true },
);

export const RubricDecision = T.Object(
  {
    type: T.Union([T.Literal('binary'), T.Literal('categorical')], { description: 'binary: two options; categorical: more, such as revision outcomes' }),
    options: T.Array(KeyName, { minItems: 2, uniqueItems: true, description: 'most favourable first' }),
    threshold_dimension: KeyName,
    threshold_value: T.Number({ description: 'a score of threshold_dimension at or above this leans to the first option' }),
  },
  { additionalProperties: true },
);

/** A reviewer rubric as bundled: every key present, 6 to 10 score dimensions. */
export const Rubric = T.Object(
  {
    id: KeyName,
    version: T.String({ minLength: 1 }),
    venue: T.String({ minLength: 1 }),
    domain: T.String({ minLength: 1 }),
    description: T.String({ minLength: 1 }),
    params: RubricParams,
    score_dimensions: T.Array(ScoreDimension, { minItems: 6, maxItems: 10 }),
    text_sections: T.Array(TextSection, { minItems: 1 }),
    decision: RubricDecision,
  },
  { additionalProperties: true, description: 'reviewer rubric (reviewer_rubrics/<id>.yaml)' },
);
export type Rubric = Static<typeof Rubric>;

/**
 * A rubric file in the user's rubric directory. Only the score dimensions are required (older
 * files carry little more); a key that is present has the type of the bundled form.
 */
export const UserRubric = T.Object(
  {
    id: T.Optional(KeyName),
    version: T.Optional(T.Union([T.String(), T.Number()])),
    venue: T.Optional(T.String()),
    domain: T.Optional(T.String()),
    description: T.Optional(T.String()),
    params: T.Optional(T.Partial(RubricParams)),
    score_dimensions: T.Array(
      T.Object({ name: KeyName, scale: ScoreDimension.properties.scale, description: T.Optional(T.String()) }, { additionalProperties: true }),
      { minItems: 1 },
    ),
    text_sections: T.Optional(T.Array(TextSection)),
    decision: T.Optional(RubricDecision),
  },
  { additionalProperties: true },
);
export type UserRubric = Static<typeof UserRubric>;
