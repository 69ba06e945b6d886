import { Markdown } from '../../../components/Markdown.tsx';
import { score } from '../../../format.ts';
import { dimensionsOf, heading, listsOf, type Review, textSectionsOf } from './review-record.ts';

/** One review: its scores per dimension as a table with bars, then its text. */
export function ReviewBody({ review, title }: { review: Review; title: string }) {
  const dims = dimensionsOf(review);
  const text = [...textSectionsOf(review), ...listsOf(review)];
  return (
    <>
      {dims.length > 0 && (
        <div className="results-scroll">
          <table className="results-table">
            <caption>Scores of {title}</caption>
            <thead>
              <tr>
                <th scope="col">Dimension</th>
                <th scope="col" className="num">
                  Score
                </th>
                <th scope="col">Scale</th>
                <th scope="col" aria-hidden="true" />
              </tr>
            </thead>
            <tbody>
              {dims.map((d) => (
                <tr key={d.name}>
                  <th scope="row">{heading(d.name)}</th>
                  <td className="num">{score(d.value, 1)}</td>
                  <td>{d.scale ? `${d.scale[0]} to ${d.scale[1]}` : '–'}</td>
                  <td aria-hidden="true" className="results-bar-cell">
                    {d.scale && d.value !== null && <span className="results-bar" style={{ width: `${(100 * (d.value - d.scale[0])) / (d.scale[1] - d.scale[0] || 1)}%` }} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {text.length === 0 ? (
        <p className="meta">This review has no text.</p>
      ) : (
        text.map(([key, body]) => (
          <section key={key} className="results-review-text">
            <h3>{heading(key)}</h3>
            <Markdown text={body} />
          </section>
        ))
      )}
    </>
  );
}
