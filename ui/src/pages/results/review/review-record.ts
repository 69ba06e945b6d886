// Reading review_report.json: the reviewers' scores by dimension, the text sections the rubric
// asked for (top-level strings), and the lists of issues and recommendations.

export type Review = Record<string, unknown>;
export type Dimension = { name: string; value: number | null; scale: [number, number] | null };

/** Top-level strings that describe the review rather than being a section of its text. */
const NOT_TEXT = new Set([
  'rubric_id',
  'rubric_version',
  'rubric_hash',
  'rubric_source',
  'venue',
  'decision',
  'reviewer_decision',
  'fewshot_mode',
  'pdf_text_snippet',
  'reviewed_at',
]);
const LISTS = ['issues', 'recommendations', 'figure_caption_issues'];

export const isReview = (v: unknown): v is Review => typeof v === 'object' && v !== null && !Array.isArray(v);

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The scores by dimension, with their scales where the report gives them. */
export function dimensionsOf(r: Review): Dimension[] {
  if (Array.isArray(r.score_dimensions)) {
    return r.score_dimensions.filter(isReview).map((d) => {
      const [lo, hi] = Array.isArray(d.scale) ? d.scale.map(num) : [];
      return { name: String(d.name), value: num(d.value), scale: typeof lo === 'number' && typeof hi === 'number' ? [lo, hi] : null };
    });
  }
  return isReview(r.scores) ? Object.entries(r.scores).map(([name, v]) => ({ name, value: num(v), scale: null })) : [];
}

/** The text sections (summary, strengths, ...) in the order the report has them. */
export const textSectionsOf = (r: Review): [string, string][] =>
  Object.entries(r).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== '' && !NOT_TEXT.has(e[0]));

/** The lists of short findings, each as Markdown bullets. */
export const listsOf = (r: Review): [string, string][] =>
  LISTS.flatMap((k) => {
    const l = Array.isArray(r[k]) ? r[k].filter((x): x is string => typeof x === 'string') : [];
    return l.length ? [[k, l.map((x) => `- ${x}`).join('\n')] as [string, string]] : [];
  });

export const overallOf = (r: Review): number | null => num(r.overall_score) ?? num(r.score);

/** `weaknesses` → `Weaknesses`, `comments_suggestions_typos` → `Comments suggestions typos`. */
export const heading = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replaceAll('_', ' ');
