import { useEffect, useRef, useState } from 'react';
import { postJson } from '../../api.ts';
import { href } from '../../route.ts';
import { type Draft, type DraftChange, launchBody, useDraft } from './draft.ts';
import { FilesStep } from './FilesStep.tsx';
import { GoalStep } from './GoalStep.tsx';
import { ModelStep } from './ModelStep.tsx';
import { ResourcesStep } from './ResourcesStep.tsx';
import { ReviewStep } from './ReviewStep.tsx';
import { ScopeStep } from './ScopeStep.tsx';
import { StepIndicator } from './StepIndicator.tsx';
import type { LaunchAnswer } from './types.ts';
import './new.css';

const STEPS = ['Goal', 'Scope', 'Model', 'Resources', 'Files', 'Launch'] as const;

/**
 * The New experiment wizard: goal, scope, model, resources, provided files, then a review with the
 * limits the run will have and the launch. The launched run opens in Monitor; a refused launch
 * shows the API's message and keeps the draft.
 */
export function NewExperimentPage() {
  const [draft, update, reset] = useDraft();
  const [step, setStep] = useState(0);
  const [launching, setLaunching] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    // a screen reader hears the new step; the first render keeps focus where it is
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [step]);

  const launch = async () => {
    setLaunching(true);
    setError(null);
    try {
      const started = await postJson<LaunchAnswer>('/api/launch', launchBody(draft));
      reset();
      location.hash = href('monitor', started.run_id);
    } catch (err) {
      setError((err as Error).message);
      setLaunching(false);
    }
  };

  return (
    <section className="page new-page">
      <h1>New experiment</h1>
      <StepIndicator steps={STEPS} current={step} onSelect={setStep} />
      <h2 className="new-step-title" ref={heading} tabIndex={-1}>
        Step {step + 1} of {STEPS.length}: {STEPS[step]}
      </h2>
      <StepBody step={step} draft={draft} update={update} />
      {error && (
        <div className="notice error new-launch-error" role="alert">
          <strong>The launch was refused:</strong> {error}
        </div>
      )}
      <div className="new-nav">
        <button type="button" disabled={step === 0} onClick={() => setStep(step - 1)}>
          Back
        </button>
        {step < STEPS.length - 1 ? (
          <button type="button" onClick={() => setStep(step + 1)}>
            Next
          </button>
        ) : (
          <button type="button" className="new-launch" disabled={launching} onClick={() => void launch()}>
            {launching ? 'Launching…' : 'Launch'}
          </button>
        )}
      </div>
    </section>
  );
}

function StepBody({ step, draft, update }: { step: number; draft: Draft; update: (change: DraftChange) => void }) {
  switch (STEPS[step]) {
    case 'Goal':
      return <GoalStep goal={draft.goal} onChange={(goal) => update({ goal })} />;
    case 'Scope':
      return <ScopeStep draft={draft} onChange={update} />;
    case 'Model':
      return <ModelStep draft={draft} onChange={update} />;
    case 'Resources':
      return <ResourcesStep draft={draft} onChange={update} />;
    case 'Files':
      return <FilesStep draft={draft} onChange={update} />;
    default:
      return <ReviewStep draft={draft} />;
  }
}
