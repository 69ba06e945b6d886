import { oneLine } from '../core/errors.ts';
import type { NodeOutcome, NodeRunner, NodeTask } from './contract.ts';

/** How long a runner may take to return once its node is aborted before the search gives up on it. */
export const ABORT_GRACE_MS = 5000;

export function failedOutcome(error: string, from?: Partial<NodeOutcome>): NodeOutcome {
  return { status: 'failed', artifacts: from?.artifacts ?? [], metrics: {}, has_real_data: false, eval_summary: null, error_log: error, trace_log: from?.trace_log ?? [], node_report_path: from?.node_report_path ?? null };
}

/**
 * Runs one node under the per-node time limit and the run's stop signal. Never throws: a runner
 * that throws, times out or is stopped gives a failed outcome saying so; one that does not return
 * within the grace period after its abort is left behind and the node is failed anyway.
 */
export async function runWithLimits(runNode: NodeRunner, task: Omit<NodeTask, 'signal'>, runSignal: AbortSignal): Promise<NodeOutcome> {
  const limitS = task.ctx.settings.timeoutNodeS;
  const timeout = AbortSignal.timeout(limitS * 1000);
  const signal = AbortSignal.any([runSignal, timeout]);
  const why = () => (timeout.aborted && !runSignal.aborted ? `stopped after ${limitS} s (SVC_TIMEOUT_NODE)` : 'stopped: the run was stopped before the node finished');
  let grace: ReturnType<typeof setTimeout> | undefined;
  const abandoned = new Promise<'abandoned'>((resolve) => {
    const arm = () => {
      grace = setTimeout(() => resolve('abandoned'), ABORT_GRACE_MS);
    };
    if (signal.aborted) arm();
    else signal.addEventListener('abort', arm, { once: true });
  });
  const work = (async () => runNode({ ...task, signal }))().then(
    (outcome) => ({ outcome }),
    (err: unknown) => ({ err }),
  );
  try {
    const r = await Promise.race([work, abandoned]);
    if (r === 'abandoned') return failedOutcome(`${why()}; the node did not end within ${ABORT_GRACE_MS / 1000} s of being stopped`);
    if (signal.aborted) return failedOutcome(why(), 'outcome' in r ? r.outcome : undefined);
    if ('err' in r) return failedOutcome(oneLine(r.err));
    const o = r.outcome;
    if (!o || (o.status !== 'success' && o.status !== 'failed')) return failedOutcome('the node runner returned no outcome (status success or failed)');
    return o;
  } finally {
    clearTimeout(grace);
  }
}
