import { type ChangeEvent, useId, useState } from 'react';
import { Markdown } from '../../components/Markdown.tsx';
import { EarlierGoal } from './EarlierGoal.tsx';
import { GoalChat } from './GoalChat.tsx';

type Props = { goal: string; onChange: (goal: string) => void };

/** The goal in Markdown: written here, read from a file or an earlier run, or refined with the model; previewed as it will read. */
export function GoalStep({ goal, onChange }: Props) {
  const editorId = useId();
  const [fileError, setFileError] = useState<string | null>(null);
  const openFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    try {
      onChange(await file.text());
      setFileError(null);
    } catch (err) {
      setFileError(`${file.name} could not be read: ${(err as Error).message}`);
    }
  };
  return (
    <div className="new-goal">
      <div className="toolbar">
        <label>
          Open a Markdown file
          <input type="file" accept=".md,.markdown,.txt,text/markdown,text/plain" onChange={(e) => void openFile(e)} />
        </label>
        <EarlierGoal onLoad={onChange} />
      </div>
      {fileError && (
        <p className="notice error" role="alert">
          {fileError}
        </p>
      )}
      <div className="new-goal-panes">
        <div>
          <label htmlFor={editorId}>Goal (Markdown)</label>
          <textarea
            id={editorId}
            className="new-editor"
            value={goal}
            onChange={(e) => onChange(e.target.value)}
            spellCheck
            placeholder={'# Title\n\n## Research Goal\nWhat to find out, measured how, against what baseline.'}
          />
        </div>
        <section aria-label="Preview of the goal" className="new-preview">
          <h2>Preview</h2>
          {goal.trim() === '' ? <p className="meta">Nothing written yet.</p> : <Markdown text={goal} />}
        </section>
      </div>
      <GoalChat goal={goal} onAccept={onChange} />
    </div>
  );
}
