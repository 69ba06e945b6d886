import { score } from '../../format.ts';
import type { LeafGrade } from './types.ts';

/** Each rubric leaf as the judge graded it. */
export function LeafGrades({ grades }: { grades: LeafGrade[] }) {
  return (
    <section className="card" aria-labelledby="bench-leaves-title">
      <h2 id="bench-leaves-title">Leaf grades</h2>
      {grades.length === 0 ? (
        <p className="state empty">The judge graded no leaf.</p>
      ) : (
        <table className="bench-table bench-leaves">
          <thead>
            <tr>
              <th scope="col">Leaf</th>
              <th scope="col">Requirement</th>
              <th scope="col" className="num">
                Weight
              </th>
              <th scope="col" className="num">
                Score
              </th>
              <th scope="col">Explanation</th>
            </tr>
          </thead>
          <tbody>
            {grades.map((l) => (
              <tr key={l.leaf_id} data-id={l.leaf_id}>
                <td data-label="Leaf">
                  <code>{l.leaf_id}</code>
                  {l.task_category && <span className="bench-authors">{l.task_category}</span>}
                </td>
                <td data-label="Requirement">{l.requirements}</td>
                <td data-label="Weight" className="num">
                  {l.weight}
                </td>
                <td data-label="Score" className="num">
                  <span className={l.score >= 0.5 ? 'bench-pass' : 'bench-fail'}>{score(l.score)}</span>
                </td>
                <td data-label="Explanation">{l.judge_error ? `judge error: ${l.judge_error}` : l.explanation}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
