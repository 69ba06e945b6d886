import { DiskWriteError } from '../core/errors.ts';
import type { ModelClient, ModelRole } from '../llm/client.ts';
import { BudgetExceededError, ModelKeyError, ModelUnreachableError, ReplayDivergedError } from '../llm/errors.ts';

type Fatal = ReplayDivergedError | BudgetExceededError | ModelUnreachableError | ModelKeyError | DiskWriteError;

/** Roles without which there are no ideas, nodes or scores; the judges degrade instead, as the spec says. */
export const CORE_ROLES: readonly ModelRole[] = ['idea', 'bfts', 'eval'];
const FATAL_ROLES: ReadonlySet<ModelRole> = new Set(CORE_ROLES);

/**
 * Model errors that end the whole run rather than one node, since every later call would fail
 * alike: a replay that asks what the recording did not, a spent budget and a disk that refuses
 * the run's records (the answer came, but could not be kept), from any role; a backend that does
 * not answer at its address and a key that is missing or refused, from the idea, agent or
 * evaluator model. The run stops as on a signal, so its checkpoint resumes once
 * the cause is fixed.
 */
export function isFatal(err: unknown, role?: ModelRole): err is Fatal {
  if (err instanceof ReplayDivergedError || err instanceof BudgetExceededError || err instanceof DiskWriteError) return true;
  return (err instanceof ModelUnreachableError || err instanceof ModelKeyError) && (role === undefined || FATAL_ROLES.has(role));
}

/**
 * Choices the search can make by its frontier formula when the model gives none. A replay resumed
 * after a kill asks them in states the recording never saw (fewer nodes running, say); there the
 * formula decides, and the run goes on, rather than stopping at a choice of order.
 */
const DECIDED_BY_FORMULA = new Set(['select_next_node', 'select_best_to_expand']);

/** The model client, stopping the run at the first fatal error. */
export function stopOnFatal(model: ModelClient, stop: AbortController): ModelClient {
  const guard = <T>(req: { role: ModelRole; meta?: { op?: string } }, p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      const formulaDecides = err instanceof ReplayDivergedError && DECIDED_BY_FORMULA.has(req.meta?.op ?? '');
      if (isFatal(err, req.role) && !formulaDecides && !stop.signal.aborted) stop.abort(err);
      throw err;
    });
  return { ...model, complete: (req) => guard(req, model.complete(req)), completeJson: (req, check, o) => guard(req, model.completeJson(req, check, o)) };
}
