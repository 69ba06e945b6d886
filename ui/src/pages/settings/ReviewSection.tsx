import { useState } from 'react';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import { FewshotCorpus } from './FewshotCorpus.tsx';
import { REPRODUCTION_FIELDS, REVIEW_FIELDS } from './fields.ts';
import { SettingsForm } from './SettingsForm.tsx';
import type { Rubrics, SettingsView } from './types.ts';

type Props = { view: SettingsView; onSaved: (view: SettingsView) => void };

/** Paper review and reproduction settings, the reviewer rubrics, and each rubric's few-shot examples. */
export function ReviewSection({ view, onSaved }: Props) {
  const rubrics = useApi<Rubrics>('/api/rubrics');
  const [chosen, setChosen] = useState<string | null>(null);
  const rubric = chosen ?? rubrics.data?.default ?? null;
  const current = rubrics.data?.rubrics.find((r) => r.id === rubric);
  return (
    <>
      <SettingsForm title="Paper and review" fields={REVIEW_FIELDS} view={view} onSaved={onSaved} />
      <SettingsForm title="Reproduction check" fields={REPRODUCTION_FIELDS} view={view} onSaved={onSaved} />
      <section className="card" aria-labelledby="settings-rubrics">
        <h2 id="settings-rubrics">Reviewer rubrics and few-shot examples</h2>
        {rubrics.error && <ErrorMessage message={rubrics.error} retry={rubrics.reload} />}
        {!rubrics.error && !rubrics.data && <Loading what="the rubrics" />}
        {rubrics.data && rubrics.data.rubrics.length === 0 && <p className="state empty">No rubric is defined: add one under reviewer_rubrics/ in the project.</p>}
        {rubrics.data && rubrics.data.rubrics.length > 0 && (
          <>
            {rubrics.data.warning && <p className="notice error">{rubrics.data.warning}</p>}
            {rubrics.data.problems.map((p) => (
              <p key={p} className="notice error">
                {p}
              </p>
            ))}
            <div className="toolbar">
              <label>
                Rubric
                <select value={rubric ?? ''} onChange={(e) => setChosen(e.target.value)}>
                  {rubrics.data.rubrics.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.id} · {r.venue}
                      {r.id === rubrics.data?.default ? ' (default)' : ''}
                    </option>
                  ))}
                </select>
              </label>
            </div>
            {current && (
              <p className="meta">
                {current.venue}, {current.domain}, version {current.version} ({current.source}). Scores: {current.dimensions.join(', ')}.
              </p>
            )}
            {current && <FewshotCorpus key={current.id} rubric={current} />}
          </>
        )}
      </section>
    </>
  );
}
