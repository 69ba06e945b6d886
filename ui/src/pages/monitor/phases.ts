import type { RunState } from './types.ts';

/** Where a step of the run stands: reached and left, being worked on, where a run that ended stopped, not yet, or not knowable. */
export type StepState = 'done' | 'current' | 'halted' | 'pending' | 'unknown';
export type Step = { name: string; state: StepState; group: 'run' | 'pipeline' };

const ORDER = ['idle', 'idea', 'bfts', 'paper', 'review'];

/**
 * The run's steps in order: the ideas, the tree search, then each enabled post-search stage of its
 * workflow. The phase the state gives places the first two; each stage is done once its output is
 * there. The first step not done is the current one while the run runs, and where it halted once
 * it has stopped or failed.
 */
export function runSteps(state: RunState): Step[] {
  const reached = ORDER.indexOf(state.phase ?? 'idle');
  const steps: Step[] = [
    { name: 'Ideas', state: reached > ORDER.indexOf('idea') ? 'done' : 'pending', group: 'run' },
    { name: 'Search', state: reached > ORDER.indexOf('bfts') || (reached === ORDER.indexOf('bfts') && state.status === 'done') ? 'done' : 'pending', group: 'run' },
    ...(state.stages ?? []).map((s): Step => ({ name: s.stage, state: s.status === 'done' ? 'done' : s.status === 'unknown' ? 'unknown' : 'pending', group: 'pipeline' })),
  ];
  const next = steps.find((s) => s.state === 'pending');
  if (next && reached > 0) {
    if (state.is_running) next.state = 'current';
    else if (state.status === 'stopped' || state.status === 'failed') next.state = 'halted';
  }
  return steps;
}
