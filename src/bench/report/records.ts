import { type Static, type TSchema, Type as T } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { InvalidRecordError } from '../../core/errors.ts';

// What the report reads of a job's results: the grade (grading/grade.ts OrsGrade) and the
// reproduction's run record (reproduce/run-reproduce.ts ReproduceRecord), the fields it shows.
// Other fields pass; a wrong shape is refused, so no number in a report is made up or guessed.

const OPEN = { additionalProperties: true };
const Num = T.Number();
const NumOrNull = T.Union([T.Number(), T.Null()]);

export const LeafGradeRecord = T.Object(
  {
    leaf_id: T.String(),
    requirements: T.String(),
    task_category: T.Union([T.String(), T.Null()]),
    weight: Num,
    score: Num,
    runs: T.Array(Num),
    explanation: T.String(),
    evidence: T.Array(T.String()),
    evidence_unverified: T.Optional(T.Array(T.String())),
    judge_error: T.Optional(T.String()),
  },
  OPEN,
);
export type LeafGradeRecord = Static<typeof LeafGradeRecord>;

export const GradeRecord = T.Object(
  {
    rubric_sha256: T.String(),
    ors_score: Num,
    raw_score: Num,
    leaf_grades: T.Array(LeafGradeRecord),
    judge_model: T.String(),
    n_runs: T.Integer(),
    run_scores: T.Array(Num),
    spread: Num,
    code_only: T.Boolean(),
    code_only_reason: T.Optional(T.String()),
    leaves_total: T.Integer(),
    leaves_passed: T.Integer(),
    negative_control: T.Object({ empty: NumOrNull, boilerplate: NumOrNull, passed: T.Union([T.Boolean(), T.Null()]), threshold: Num, skipped: T.Optional(T.Boolean()) }, OPEN),
    degraded: T.Boolean(),
    degraded_reason: T.Optional(T.String()),
    graded_at: T.String(),
  },
  OPEN,
);
export type GradeRecord = Static<typeof GradeRecord>;

export const RunRecord = T.Object(
  {
    sandbox_kind: T.String(),
    exit_code: NumOrNull,
    timed_out: T.Boolean(),
    wall_time_sec: Num,
    started_at: T.String(),
    ended_at: T.String(),
    command: T.String(),
    log_path: T.String(),
  },
  OPEN,
);
export type RunRecord = Static<typeof RunRecord>;

/** The value as the schema's type, or InvalidRecordError naming the first field that is wrong. */
export function checked<S extends TSchema>(schema: S, value: unknown, what: string, hint: string): Static<S> {
  if (Value.Check(schema, value)) return value;
  const first = [...Value.Errors(schema, value)][0];
  throw new InvalidRecordError(`${what} is not valid: ${first ? `${first.path || '/'} ${first.message}` : 'wrong shape'}`, hint);
}
