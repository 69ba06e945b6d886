import type { Embedder } from '../llm/embeddings.ts';
import type { ModelClient } from '../llm/client.ts';
import { askIdea, ideaCallMeta } from './ask-json.ts';
import { briefing, PROMPT_PAPERS } from './idea-context.ts';
import { type DraftIdea, draftIdeasProblem, draftOf, type Idea, scoredIdeas, synthesisProblem } from './idea-file.ts';
import type { Author, Team } from './ma-authors.ts';
import { paperText, type SnapshotPaper } from './ma-snapshot.ts';
import { ideaPrompt } from './prompt-template.ts';
import { nearest, rounded } from './vectors.ts';

/** Papers the novelty check names after each round. */
export const NOVELTY_NEIGHBOURS = 3;

export type Turn = { round: number; author: string; op: 'propose' | 'revise'; title: string; critique?: string };
/** After a round: the corpus papers nearest the team's idea; novelty = 1 − the highest similarity. */
export type NoveltyCheck = { round: number; title: string; nearest: { title: string; url: string; similarity: number }[]; novelty: number };
export type TeamDiscussion = Team & { turns: Turn[]; novelty_checks: NoveltyCheck[]; final_idea: DraftIdea };

export type TeamsInput = {
  topic: string;
  experimentContext: string;
  corpus: readonly SnapshotPaper[];
  authors: readonly Author[];
  teams: readonly Team[];
  k: number;
};

export type TeamsDeps = {
  client: Pick<ModelClient, 'complete'>;
  embedder: Embedder;
  /** the node the calls belong to in the cost ledger, when a node asked */
  nodeId?: string | null;
  signal?: AbortSignal;
};

/**
 * Every team's discussion, one after another: in each of k rounds each member speaks in turn
 * (the leader proposes first, then every turn critiques and revises the team's one idea), and
 * after each round the idea is embedded and compared with the corpus, so the next round is told
 * which papers are closest and how close. The calls come in a fixed order: a replayed run asks
 * the same questions in the same order (k·team_size chat calls and k embedding calls per team).
 */
export async function discussInTeams(input: TeamsInput, deps: TeamsDeps): Promise<TeamDiscussion[]> {
  const byId = new Map(input.authors.map((a) => [a.id, a]));
  const out: TeamDiscussion[] = [];
  for (const team of input.teams) {
    const members = team.members.map((m) => byId.get(m.author) as Author);
    const brief = briefing(input.topic, input.experimentContext, teamPapers(members, input.corpus));
    const turns: Turn[] = [];
    const checks: NoveltyCheck[] = [];
    let idea: DraftIdea | null = null;
    for (let r = 1; r <= input.k; r++) {
      const critiques: string[] = [];
      for (const author of members) {
        const values = { author: author.id, team: team.team, n_teams: input.teams.length, team_size: members.length, expertise: author.expertise.map((t) => `"${t}"`).join('; '), persona: author.viewpoint, round: r, rounds: input.k };
        const where = `team ${team.team}, ${author.id} in round ${r}`;
        if (idea === null) {
          const answer = await ask(deps, ideaPrompt('ma_propose', values), brief, 'ma_propose', ideaProblem, `${where} (proposal)`);
          idea = draftOf(answer.idea as Record<string, unknown>);
          turns.push({ round: r, author: author.id, op: 'propose', title: idea.title });
          continue;
        }
        const user = `${brief}\n\n# The team's current idea\n${ideaBlock(idea)}\n\n# Said before you in this round\n${critiques.length ? critiques.join('\n\n') : '(nothing yet: you speak first in this round)'}\n\n# Novelty check\n${noveltyBlock(checks.at(-1))}`;
        const answer = await ask(deps, ideaPrompt('ma_turn', values), user, 'ma_turn', turnProblem, where);
        const critique = String(answer.critique).trim();
        idea = draftOf(answer.idea as Record<string, unknown>);
        critiques.push(`## ${author.id}\n${critique}`);
        turns.push({ round: r, author: author.id, op: 'revise', title: idea.title, critique });
      }
      checks.push(await noveltyCheck(idea as DraftIdea, r, input.corpus, deps));
    }
    out.push({ ...team, turns, novelty_checks: checks, final_idea: idea as DraftIdea });
  }
  return out;
}

export type PanelResult = { gap_analysis: string; ideas: Idea[]; primary_metric: string; higher_is_better: boolean; metric_rationale: string };

/**
 * The teams' final ideas scored as the built-in loop scores its synthesis (same checks, same
 * overall score), one per team, best first.
 */
export async function scoreTeamIdeas(input: { topic: string; experimentContext: string; corpus: readonly SnapshotPaper[]; k: number }, teams: readonly TeamDiscussion[], deps: TeamsDeps): Promise<PanelResult> {
  const brief = briefing(input.topic, input.experimentContext, input.corpus);
  const finals = teams.map((t) => `## Team ${t.team}: ${t.final_idea.title}\n${ideaBlock(t.final_idea)}\nNovelty check: ${noveltyBlock(t.novelty_checks.at(-1))}`).join('\n\n');
  const system = ideaPrompt('ma_synthesis', { n_teams: teams.length, rounds: input.k });
  const s = await ask(deps, system, `${brief}\n\n# The teams' final ideas\n${finals}`, 'ma_synthesis', (v) => synthesisProblem(v, teams.length), 'the panel scoring the teams\' ideas');
  return {
    gap_analysis: String(s.gap_analysis).trim(),
    ideas: scoredIdeas(s.ideas as Record<string, unknown>[], teams.length),
    primary_metric: String(s.primary_metric).trim(),
    higher_is_better: s.higher_is_better as boolean,
    metric_rationale: String(s.metric_rationale).trim(),
  };
}

function ask(deps: TeamsDeps, system: string, user: string, op: string, check: (v: unknown) => string | null, what: string) {
  return askIdea(deps.client, { system, user, meta: ideaCallMeta(op, deps.nodeId), signal: deps.signal }, check, what);
}

function ideaProblem(v: unknown): string | null {
  if (!v || typeof v !== 'object') return 'the answer must be a JSON object';
  return draftIdeasProblem([(v as Record<string, unknown>).idea], 1)?.replace('ideas[0]', 'idea') ?? null;
}

function turnProblem(v: unknown): string | null {
  return ideaProblem(v) ?? (typeof (v as Record<string, unknown>).critique === 'string' ? null : '"critique" must be a string');
}

async function noveltyCheck(idea: DraftIdea, r: number, corpus: readonly SnapshotPaper[], deps: TeamsDeps): Promise<NoveltyCheck> {
  const [vector] = await deps.embedder.embed([paperText({ title: idea.title, abstract: `${idea.description} ${idea.novelty}`, url: '' })], { meta: ideaCallMeta('ma_novelty', deps.nodeId), signal: deps.signal });
  const near = nearest(vector as number[], corpus.map((p) => p.vector), NOVELTY_NEIGHBOURS).map(({ index, similarity }) => {
    const p = corpus[index] as SnapshotPaper;
    return { title: p.title, url: p.url, similarity: rounded(similarity) };
  });
  return { round: r, title: idea.title, nearest: near, novelty: rounded(1 - (near[0]?.similarity ?? 0)) };
}

/** The members' papers, most central first, taken in turn so each member's field is shown. */
function teamPapers(members: readonly Author[], corpus: readonly SnapshotPaper[]): SnapshotPaper[] {
  const seen = new Set<number>();
  const longest = Math.max(...members.map((m) => m.papers.length));
  for (let i = 0; i < longest && seen.size < PROMPT_PAPERS; i++) for (const m of members) if (m.papers[i] !== undefined && seen.size < PROMPT_PAPERS) seen.add(m.papers[i] as number);
  return [...seen].map((i) => corpus[i] as SnapshotPaper);
}

function ideaBlock(d: DraftIdea): string {
  return `${d.title}\n${d.description}\nNovelty: ${d.novelty}\nFeasibility: ${d.feasibility}\nPlan:\n${d.experiment_plan}`;
}

function noveltyBlock(c: NoveltyCheck | undefined): string {
  if (!c) return '(none yet: the first check follows this round)';
  const list = c.nearest.map((n, i) => `${i + 1}. ${n.title} (similarity ${n.similarity.toFixed(3)})`).join('\n');
  return `after round ${c.round}, the closest corpus papers to "${c.title}":\n${list}\nnovelty ${c.novelty.toFixed(3)} (1 − the highest similarity)`;
}
