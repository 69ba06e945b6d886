import { type RunOptions, SANDBOX_KINDS } from './run-options.ts';

type Props = { options: RunOptions; onChange: (o: RunOptions) => void };

/** The three stages' options of a run; the cluster's only when the sandbox is slurm. */
export function RunOptionsFields({ options: o, onChange }: Props) {
  const text = (key: keyof RunOptions) => ({ value: o[key] as string, onChange: (e: { target: { value: string } }) => onChange({ ...o, [key]: e.target.value }) });
  const flag = (key: keyof RunOptions) => ({ checked: o[key] as boolean, onChange: (e: { target: { checked: boolean } }) => onChange({ ...o, [key]: e.target.checked }) });
  return (
    <>
      <fieldset className="card bench-fields">
        <legend>Rubric</legend>
        <label>
          Model
          <input {...text('rubricModel')} placeholder="the configured one" />
        </label>
        <label className="bench-check">
          <input type="checkbox" {...flag('twoStage')} /> Two-stage generation
        </label>
      </fieldset>
      <fieldset className="card bench-fields">
        <legend>Reproduction</legend>
        <label>
          Agent model
          <input {...text('agentModel')} placeholder="the configured one" />
        </label>
        <label>
          Time limit (seconds)
          <input {...text('timeLimitSec')} inputMode="numeric" />
        </label>
        <label>
          Sandbox
          <select {...text('sandboxKind')}>
            <option value="">auto</option>
            {SANDBOX_KINDS.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </label>
        <label>
          Container image
          <input {...text('containerImage')} placeholder="bench-env" />
        </label>
        <label className="bench-check">
          <input type="checkbox" {...flag('iterativeAgent')} /> Iterative agent
        </label>
        {o.sandboxKind === 'slurm' && (
          <>
            <label>
              Partition
              <input {...text('partition')} />
            </label>
            <label>
              Nodes
              <input {...text('nodes')} inputMode="numeric" />
            </label>
            <label>
              GPUs per task
              <input {...text('gpusPerTask')} inputMode="numeric" />
            </label>
            <label>
              GPU type
              <input {...text('gpuType')} />
            </label>
            <label>
              Memory per node (GB)
              <input {...text('memoryGbPerNode')} inputMode="numeric" />
            </label>
            <label>
              Constraint
              <input {...text('constraint')} />
            </label>
            <label className="bench-check">
              <input type="checkbox" {...flag('exclusive')} /> Exclusive nodes
            </label>
            <label className="bench-wide">
              Extra sbatch arguments, one a line
              <textarea {...text('extraSbatchArgs')} rows={2} />
            </label>
          </>
        )}
      </fieldset>
      <fieldset className="card bench-fields">
        <legend>Judging</legend>
        <label>
          Judge model
          <input {...text('judgeModel')} placeholder="the configured one" />
        </label>
        <label>
          Grading runs
          <input {...text('nRuns')} inputMode="numeric" placeholder="3" />
        </label>
        <label className="bench-check">
          <input type="checkbox" {...flag('codeOnly')} /> Code only
        </label>
      </fieldset>
    </>
  );
}
