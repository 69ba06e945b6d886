/**
 * The idea phase of the scripted researcher: three ideas for the demo task (fewer comparisons
 * sorting a seeded array), in the shape of idea.json (survey 2.3).
 */

type Idea = {
  title: string;
  description: string;
  novelty: string;
  feasibility: string;
  experiment_plan: string;
  novelty_score: number;
  feasibility_score: number;
  clarity_score: number;
  overall_score: number;
};

function idea(title: string, description: string, plan: string, novelty: number, feasibility: number, clarity: number): Idea {
  return {
    title,
    description,
    novelty: novelty >= 0.5 ? 'tunes a known algorithm to this input size, measuring rather than assuming' : 'a known technique, measured carefully',
    feasibility: feasibility >= 0.8 ? 'one Node.js file, seconds per run' : 'a few Node.js files, seconds per run',
    experiment_plan: plan,
    novelty_score: novelty,
    feasibility_score: feasibility,
    clarity_score: clarity,
    overall_score: Math.round(((2 * novelty + feasibility + clarity) / 4) * 100) / 100,
  };
}

export const DEMO_IDEAS: readonly Idea[] = [
  idea(
    'Geometric gap ratio for Shell sort',
    'Shell sort with gaps h(k+1) = floor(r * h(k)) beats insertion sort by orders of magnitude; search the ratio r that minimises comparisons on the fixed array.',
    '§hypothesis A ratio near 2.2-2.5 minimises comparisons for n = 2000.\n§method Insertion sort as the baseline, then Shell sort with ratios 1.8 to 3.\n§metric comparisons (lower is better), counted exactly.\n§validation The best ratio on a second seeded array.',
    0.55,
    0.95,
    0.9,
  ),
  idea(
    'Binary insertion sort',
    'Find each insertion point by binary search: about n·log2(n) comparisons, but the same quadratic moves.',
    '§hypothesis Binary search cuts comparisons to about n·log2(n).\n§method Count comparisons of binary against linear insertion.\n§metric comparisons (lower is better).',
    0.35,
    0.95,
    0.85,
  ),
  idea(
    'Merge-insertion (Ford-Johnson) ordering',
    'Ford-Johnson is close to the information-theoretic minimum of comparisons; measure how close on 2000 integers.',
    '§hypothesis Merge-insertion needs the fewest comparisons of the three.\n§method Implement Ford-Johnson and count comparisons.\n§metric comparisons (lower is better).',
    0.6,
    0.5,
    0.7,
  ),
];

const GAP = 'Insertion sort needs about n²/4 comparisons on random input; the gap between that and n·log2(n) is where a better ordering of comparisons pays off, and the demo measures it exactly on a seeded array.';

/** One agent's proposals: its favourite at the top level (for a reader expecting one idea) and all three. */
export function ideaAgentReply(): string {
  return JSON.stringify({ ...DEMO_IDEAS[0], gap_analysis: GAP, ideas: DEMO_IDEAS });
}

/** A discussion round: keeps the ideas, ranks the gap-ratio idea first. */
export function ideaDiscussionReply(): string {
  return JSON.stringify({
    ...DEMO_IDEAS[0],
    critique: 'Merge-insertion is the most ambitious but the hardest to get right in one node; the gap ratio is cheap and measurable.',
    ranking: [0, 1, 2],
    ideas: DEMO_IDEAS,
    consensus: true,
  });
}

/** The whole idea file. */
export function ideaSynthesisReply(): string {
  return JSON.stringify({
    gap_analysis: GAP,
    ideas: DEMO_IDEAS,
    primary_metric: 'comparisons',
    higher_is_better: false,
    metric_rationale: 'The number of element comparisons is exact, deterministic and independent of the machine, unlike wall time.',
  });
}

const draftOfDemo = ({ title, description, novelty, feasibility, experiment_plan }: Idea) => ({ title, description, novelty, feasibility, experiment_plan });

/** The demo idea a multi-agent team works on: team t takes idea t (the system prompt names the team). */
function teamIdea(system: string): Idea {
  const team = Number(/research team (\d+) of/.exec(system)?.[1] ?? '1');
  return DEMO_IDEAS[(team - 1) % DEMO_IDEAS.length] as Idea;
}

/** The multi-agent engine's first turn: the team leader proposes its team's demo idea. */
export function ideaMaProposeReply(system: string): string {
  return JSON.stringify({ idea: draftOfDemo(teamIdea(system)) });
}

/** A later turn: a critique, and the team's idea kept. */
export function ideaMaTurnReply(system: string): string {
  return JSON.stringify({ critique: 'Measurable in seconds and exact; keep the comparison count as the metric and check the closest papers for prior tuning.', idea: draftOfDemo(teamIdea(system)) });
}

/** The panel: one scored idea per team, in team order, and the demo's metric. */
export function ideaMaSynthesisReply(system: string): string {
  const teams = Number(/final ideas of (\d+) research team/.exec(system)?.[1] ?? '1');
  const ideas = Array.from({ length: teams }, (_, i) => DEMO_IDEAS[i % DEMO_IDEAS.length] as Idea);
  return JSON.stringify({ ...JSON.parse(ideaSynthesisReply()), ideas });
}
