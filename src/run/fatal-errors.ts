import { BudgetExceededError, ReplayDivergedError } from '../llm/errors.ts';
import type { ModelClient } from '../llm/client.ts';

/**
 * Model errors that end the whole run rather than one node: a replay that asks what the recording
 * did not (every later answer would be wrong too) and a spent budget (every later call is refused).
 * The run stops as on a signal, so its checkpoint resumes.
 */
export function isFatal(err: unknown): err is ReplayDivergedError | BudgetExceededError {
  return err instanceof ReplayDivergedError || err instanceof BudgetExceededError;
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
