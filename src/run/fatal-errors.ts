import { BudgetExceededError, ModelKeyError, ModelUnreachableError, ReplayDivergedError } from '../llm/errors.ts';
import type { ModelClient } from '../llm/client.ts';

/**
 * Model errors that end the whole run rather than one node, since every later call would fail
 * alike: a replay that asks what the recording did not, a spent budget, a backend that does not
 * answer at its address, a key that is missing or refused. The run stops as on a signal, so its
 * checkpoint resumes once the cause is fixed.
 */
export function isFatal(err: unknown): err is ReplayDivergedError | BudgetExceededError | ModelUnreachableError | ModelKeyError {
  return err instanceof ReplayDivergedError || err instanceof BudgetExceededError || err instanceof ModelUnreachableError || err instanceof ModelKeyError;
}

/** The model client, stopping the run at the first fatal error. */
export function stopOnFatal(model: ModelClient, stop: AbortController): ModelClient {
  const guard = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      if (isFatal(err) && !stop.signal.aborted) stop.abort(err);
      throw err;
    });
  return { ...model, complete: (req) => guard(model.complete(req)), completeJson: (req, check, o) => guard(model.completeJson(req, check, o)) };
}
