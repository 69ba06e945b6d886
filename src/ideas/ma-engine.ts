import { join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import type { Config } from '../core/config/config.ts';
import { type Env, envOnOff, envValue } from '../core/config/env-vars.ts';
import { oneLine, UnavailableError } from '../core/errors.ts';
import { log } from '../core/log.ts';
import type { ModelClient } from '../llm/client.ts';
import { createEmbedder } from '../llm/embeddings.ts';
import { ReplayDivergedError } from '../llm/errors.ts';
import { ideaCallMeta } from './ask-json.ts';
import { checkGenerateParams, type GenerateParams, generateIdeas } from './discussion.ts';
import type { IdeaFile } from './idea-file.ts';
import { authorPool, formTeams } from './ma-authors.ts';
import { discussInTeams, scoreTeamIdeas } from './ma-discussion.ts';
import { type MaSettings, maSettings } from './ma-settings.ts';
import { literatureSnapshot } from './ma-snapshot.ts';
import { type RetrievalSettings, retrievalSettings } from './retrieval-settings.ts';

/**
 * What idea.json records when the multi-agent engine ran. The reference names its wrapped engine
 * so; svc keeps the value for the engine it carries natively, so that readers of idea.json (the
 * reference's tools, svc's dashboard) understand it without a new value.
 */
export const MA_STATUS = 'real_wrap';

/** The engine's record for a researcher: snapshot, authors, teams, every turn and novelty check. */
export const TEAMS_FILE = 'idea_teams.json';

/**
 * Whether the multi-agent engine is asked for: SVC_IDEA_MA_REAL on, or, when it is unset,
 * SVC_IDEA_MA_LIVE set (`svc run --ma-live/--no-ma-live` sets it). A value neither on nor off is refused.
 */
export function wantsMaEngine(env: Env): boolean {
  if (envValue(env, 'SVC_IDEA_MA_REAL') !== null) return envOnOff(env, 'SVC_IDEA_MA_REAL');
  return envValue(env, 'SVC_IDEA_MA_LIVE') !== null;
}

export type EngineDeps = {
  client: Pick<ModelClient, 'complete'>;
  cfg: Config;
  env: Env;
  /** where the snapshot is cached and the teams file written; null: neither */
  checkpointDir: string | null;
  nodeId?: string | null;
  signal?: AbortSignal;
};

/**
 * generate_ideas with the engine the settings ask for. The multi-agent engine falls back to the
 * built-in loop, which records `reimpl: <reason>`, when it has no embedding model, its live
 * snapshot holds zero papers, or anything else goes wrong at run time; a bad setting is refused
 * before any work, as a bad parameter is.
 */
export async function generateIdeasWithEngine(p: GenerateParams, deps: EngineDeps): Promise<IdeaFile> {
  checkGenerateParams(p);
  const loop = (status: string) => generateIdeas(p, { client: deps.client, maIntegrationStatus: status, nodeId: deps.nodeId, signal: deps.signal });
  if (!wantsMaEngine(deps.env)) return await loop('reimpl');
  const settings = maSettings(deps.env, p.nIdeas);
  const retrieval = retrievalSettings(deps.cfg, deps.env);
  try {
    return await maIdeas(p, settings, retrieval, deps);
  } catch (err) {
    // a replay that asks what was not recorded says so where it happened, not later in a loop the recording never ran
    if (deps.signal?.aborted || err instanceof ReplayDivergedError) throw err;
    const reason = `the multi-agent engine did not run: ${oneLine(err)}; the built-in discussion loop ran instead`;
    log.warn(`generate_ideas: ${reason}`);
    if (deps.checkpointDir) writeJsonAtomic(join(deps.checkpointDir, TEAMS_FILE), { engine: 'multi-agent', ran: false, reason });
    return await loop(`reimpl: ${reason}`);
  }
}

async function maIdeas(p: GenerateParams, s: MaSettings, retrieval: RetrievalSettings, deps: EngineDeps): Promise<IdeaFile> {
  if (s.embedModel === null) throw new UnavailableError('SVC_IDEA_MA_EMBED_MODEL is none', 'name an embedding model, or unset it for the default');
  const embedder = createEmbedder({ cfg: deps.cfg, checkpointDir: deps.checkpointDir, handle: s.embedModel, source: 'SVC_IDEA_MA_EMBED_MODEL' });
  const snapshot = await literatureSnapshot({ topic: p.topic, papers: p.papers, nPapers: s.nPapers, live: s.live, embedder, retrieval, checkpointDir: deps.checkpointDir, meta: ideaCallMeta('ma_snapshot', deps.nodeId), signal: deps.signal });
  const authors = authorPool(snapshot.corpus, s.nAuthors);
  const teams = formTeams(authors, s.teamSize, s.maxTeams);
  const tdeps = { client: deps.client, embedder, nodeId: deps.nodeId, signal: deps.signal };
  const discussions = await discussInTeams({ topic: p.topic, experimentContext: p.experimentContext, corpus: snapshot.corpus, authors, teams, k: s.k }, tdeps);
  const panel = await scoreTeamIdeas({ topic: p.topic, experimentContext: p.experimentContext, corpus: snapshot.corpus, k: s.k }, discussions, tdeps);
  if (deps.checkpointDir) {
    const { corpus, ...about } = snapshot;
    writeJsonAtomic(join(deps.checkpointDir, TEAMS_FILE), {
      engine: 'multi-agent',
      ran: true,
      settings: { k: s.k, team_size: s.teamSize, n_authors: s.nAuthors, n_papers: s.nPapers, max_teams: s.maxTeams, embed_model: s.embedModel, live: s.live },
      snapshot: { ...about, corpus: corpus.length },
      authors: authors.map((a) => ({ id: a.id, viewpoint: a.viewpoint, expertise: a.expertise, papers: a.papers.length })),
      teams: discussions,
    });
  }
  return {
    gap_analysis: panel.gap_analysis,
    ideas: panel.ideas.slice(0, p.nIdeas),
    primary_metric: panel.primary_metric,
    higher_is_better: panel.higher_is_better,
    metric_rationale: panel.metric_rationale,
    papers_analyzed: snapshot.corpus.length,
    n_agents: teams[0]?.members.length ?? 0,
    discussion_rounds: s.k,
    ma_integration_status: MA_STATUS,
  };
}
