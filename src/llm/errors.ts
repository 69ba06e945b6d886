import { InputError, LimitReachedError, SvcError, UnavailableError, UpstreamAnswerError } from '../core/errors.ts';

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
export class ReplayDivergedError extends SvcError {
  constructor(message: string, hint: string) {
    super(message, hint);
    this.name = 'ReplayDivergedError';
  }
}

/** A model's answer is not what was asked for (JSON), even after a corrective retry. */
export class ModelAnswerError extends UpstreamAnswerError {
  constructor(message: string, hint?: string) {
    super(message, hint);
    this.name = 'ModelAnswerError';
  }
}

/** No model backend answers at the configured address: every call of the run would fail alike. */
export class ModelUnreachableError extends UnavailableError {
  constructor(message: string, hint: string) {
    super(message, hint);
    this.name = 'ModelUnreachableError';
  }
}

/** The backend's key is missing or refused: every call of the run would fail alike. */
export class ModelKeyError extends InputError {
  constructor(message: string, hint: string) {
    super(message, hint);
    this.name = 'ModelKeyError';
  }
}
