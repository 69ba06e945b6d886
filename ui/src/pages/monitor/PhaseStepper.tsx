import { type Step, runSteps } from './phases.ts';
import type { RunState } from './types.ts';

const SAYS: Record<Step['state'], string> = { done: 'done', current: 'in progress', halted: 'stopped here', pending: 'not started', unknown: 'no output file to tell' };

/** The run's steps, ideas to the last pipeline stage, each marked with where it stands. */
export function PhaseStepper({ state }: { state: RunState }) {
  const steps = runSteps(state);
  const pipeline = steps.filter((s) => s.group === 'pipeline');
  return (
    <section className="card monitor-phases" aria-labelledby="phases-title">
      <h2 id="phases-title">Phases</h2>
      <ol className="monitor-stepper" aria-label="Run phases">
        {steps
          .filter((s) => s.group === 'run')
          .map((s) => (
            <StepItem key={s.name} step={s} />
          ))}
        <li className="monitor-step-group">
          <span className="monitor-step-name">Pipeline</span>
          {pipeline.length === 0 ? (
            <p className="meta">The workflow has no enabled post-search stage.</p>
          ) : (
            <ol className="monitor-stepper monitor-stages" aria-label="Pipeline stages">
              {pipeline.map((s) => (
                <StepItem key={s.name} step={s} />
              ))}
            </ol>
          )}
        </li>
      </ol>
    </section>
  );
}

function StepItem({ step }: { step: Step }) {
  return (
    <li className={`monitor-step monitor-step-${step.state}`} aria-current={step.state === 'current' ? 'step' : undefined} data-state={step.state}>
      <span className="monitor-step-name">{step.name}</span> <span className="monitor-step-state">{SAYS[step.state]}</span>
    </li>
  );
}
