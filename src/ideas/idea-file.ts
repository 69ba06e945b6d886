/** One idea as agents propose and revise it. */
export type DraftIdea = { title: string; description: string; novelty: string; feasibility: string; experiment_plan: string };

/** One idea of idea.json: the draft with its scores; overall_score = (2·novelty + feasibility + clarity) / 4. */
export type Idea = DraftIdea & { novelty_score: number; feasibility_score: number; clarity_score: number; overall_score: number };

/** The idea file contract (`{checkpoint}/idea.json`), whichever engine produced it. */
export type IdeaFile = {
  gap_analysis: string;
  ideas: Idea[];
  primary_metric: string;
  higher_is_better: boolean;
  metric_rationale: string;
  papers_analyzed: number;
  n_agents: number;
  discussion_rounds: number;
  /** `real_wrap`, or `reimpl` followed by the reason the built-in loop ran */
  ma_integration_status: string;
};

/** Rounded half up to 2 decimals; the nudge keeps 0.825, stored as 0.82499…, from rounding down. */
export function overallScore(novelty: number, feasibility: number, clarity: number): number {
  return Math.round(((2 * novelty + feasibility + clarity) / 4) * 100 + 1e-9) / 100;
}

const TEXT_FIELDS = ['title', 'description', 'novelty', 'feasibility', 'experiment_plan'] as const;

/** What is wrong with a list of draft ideas, or null; `need` is how many the answer must hold at least. */
export function draftIdeasProblem(value: unknown, need: number): string | null {
  if (!Array.isArray(value)) return '"ideas" must be a list';
  if (value.length < need) return `"ideas" must hold ${need} idea(s), it holds ${value.length}`;
  for (const [i, idea] of value.slice(0, need).entries()) {
    if (!idea || typeof idea !== 'object') return `ideas[${i}] must be an object`;
    for (const f of TEXT_FIELDS) {
      const v = (idea as Record<string, unknown>)[f];
      if (typeof v !== 'string' || v.trim() === '') return `ideas[${i}].${f} must be a non-empty string`;
    }
    if (!(idea as DraftIdea).experiment_plan.includes('§')) return `ideas[${i}].experiment_plan must be Markdown sections starting with §-tags such as §hypothesis`;
  }
  return null;
}

export function draftOf(value: Record<string, unknown>): DraftIdea {
  const text = (f: string) => String(value[f]).trim();
  return { title: text('title'), description: text('description'), novelty: text('novelty'), feasibility: text('feasibility'), experiment_plan: text('experiment_plan') };
}

const SCORE_FIELDS = ['novelty_score', 'feasibility_score', 'clarity_score'] as const;

/** What is wrong with a synthesis answer, or null. */
export function synthesisProblem(value: unknown, nIdeas: number): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'the answer must be a JSON object';
  const v = value as Record<string, unknown>;
  for (const f of ['gap_analysis', 'primary_metric', 'metric_rationale']) {
    if (typeof v[f] !== 'string' || (v[f] as string).trim() === '') return `"${f}" must be a non-empty string`;
  }
  if (typeof v.higher_is_better !== 'boolean') return '"higher_is_better" must be true or false';
  const drafts = draftIdeasProblem(v.ideas, nIdeas);
  if (drafts) return drafts;
  for (const [i, idea] of (v.ideas as Record<string, unknown>[]).slice(0, nIdeas).entries()) {
    for (const f of SCORE_FIELDS) {
      const s = idea[f];
      if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > 1) return `ideas[${i}].${f} must be a number from 0 to 1`;
    }
  }
  return null;
}

/** The scored ideas of a checked synthesis answer, best overall first (the first becomes the root). */
export function scoredIdeas(ideas: Record<string, unknown>[], nIdeas: number): Idea[] {
  const scored = ideas.slice(0, nIdeas).map((raw) => {
    const [n, f, c] = SCORE_FIELDS.map((k) => raw[k] as number) as [number, number, number];
    return { ...draftOf(raw), novelty_score: n, feasibility_score: f, clarity_score: c, overall_score: overallScore(n, f, c) };
  });
  // stable: equal scores keep the synthesis order, which puts the strongest first
  return scored.sort((a, b) => b.overall_score - a.overall_score);
}
