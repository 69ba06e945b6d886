import { Empty, ErrorMessage } from '../../../components/states.tsx';
import { score } from '../../../format.ts';
import { isReview, overallOf } from './review-record.ts';
import { ReviewBody } from './ReviewBody.tsx';

/** review_report.json: the overall score and decision, the scores per dimension, the reviews' text. */
export function ReviewSection({ review }: { review: unknown }) {
  if (review === undefined)
    return (
      <Empty title="No review yet">
        <p>
          This run has no <code>review_report.json</code>. The paper phase's <code>review_paper</code> stage (review_compiled_paper) writes it once the
          paper compiles.
        </p>
      </Empty>
    );
  if (!isReview(review)) return <ErrorMessage message="review_report.json does not hold a JSON object, so it cannot be shown as a review." />;
  const ensemble = Array.isArray(review.ensemble_reviews) ? review.ensemble_reviews.filter(isReview) : [];
  const decision = typeof review.decision === 'string' ? review.decision : null;
  const facts: [string, string][] = [
    ['Overall score', score(overallOf(review), 2)],
    ['Decision', decision ?? '–'],
    ['Rubric', [review.rubric_id, review.rubric_version].filter((x) => typeof x === 'string').join(' ') || '–'],
    ['Venue', typeof review.venue === 'string' ? review.venue : '–'],
    ['Reviewers', typeof review.n === 'number' ? String(review.n) : ensemble.length ? String(ensemble.length) : '1'],
  ];
  return (
    <div className="cards single">
      <section className="card" aria-labelledby="results-review-title">
        <h2 id="results-review-title">{ensemble.length > 1 ? `Review: the meta review of ${ensemble.length} reviewers` : 'Review'}</h2>
        <dl className="facts results-facts">
          {facts.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        <ReviewBody review={review} title="the review" />
      </section>
      {ensemble.map((r, i) => (
        <details key={i} className="card">
          <summary>
            Reviewer {typeof r.reviewer === 'number' ? r.reviewer : i + 1}: overall {score(overallOf(r), 2)}
            {typeof r.reviewer_decision === 'string' ? `, ${r.reviewer_decision}` : ''}
          </summary>
          <ReviewBody review={r} title={`reviewer ${i + 1}`} />
        </details>
      ))}
    </div>
  );
}
