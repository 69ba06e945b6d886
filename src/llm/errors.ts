import { errorKind, InputError, LimitReachedError, UnavailableError, UpstreamAnswerError } from '../core/errors.ts';

/** SVC_BUDGET_USD is spent: no new model call starts. */
export class BudgetExceededError extends LimitReachedError {
  constructor(
    readonly spentUsd: number,
    readonly budgetUsd: number,
    where: string,
  ) {
    super(`model budget reached: $${spentUsd.toFixed(6)} spent of SVC_BUDGET_USD=${budgetUsd}`, `raise or unset SVC_BUDGET_USD to allow more calls (${where})`);
    this.name = 'BudgetExceededError';
  }
}

/** The replay backend was asked something the recorded run did not ask. */
export const ReplayDivergedError = errorKind('ReplayDivergedError', 1);
export type ReplayDivergedError = InstanceType<typeof ReplayDivergedError>;

/** A model's answer is not what was asked for (JSON), even after a corrective retry. */
export const ModelAnswerError = errorKind('ModelAnswerError', 1, UpstreamAnswerError);
export type ModelAnswerError = InstanceType<typeof ModelAnswerError>;

/** No model backend answers at the configured address: every call of the run would fail alike. */
export const ModelUnreachableError = errorKind('ModelUnreachableError', 1, UnavailableError);
export type ModelUnreachableError = InstanceType<typeof ModelUnreachableError>;

/** The backend's key is missing or refused: every call of the run would fail alike. */
export const ModelKeyError = errorKind('ModelKeyError', 2, InputError);
export type ModelKeyError = InstanceType<typeof ModelKeyError>;
