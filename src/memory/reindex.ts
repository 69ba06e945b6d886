import { MemoryServerError } from './client-http.ts';
import type { MemoryClient } from './client.ts';

/** Passages embedded per request: one request stays well within the client's timeout. */
const BATCH = 256;

export type ReindexProgress = { agent: string; model: string; embedded: number; remaining: number };

export type ReindexReport = {
  /** per agent: passages embedded, or why it was left alone */
  agents: ({ agent: string; model: string; embedded: number; remaining: number } | { agent: string; skipped: string })[];
  embedded: number;
};

/**
 * Embeds every passage of the agents that has no vector of its agent's model, a batch per request
 * (newest first, so recent memory is searchable by meaning first), reporting each batch. Running
 * it again embeds nothing. An agent without an embedding model is skipped and said so; a model
 * that fails stops the reindex with its error (what was embedded stays).
 */
export async function reindexAgents(client: MemoryClient, agents: { id: string; name: string }[], onProgress: (p: ReindexProgress) => void): Promise<ReindexReport> {
  const report: ReindexReport = { agents: [], embedded: 0 };
  for (const { id, name } of agents) {
    let total = 0;
    for (;;) {
      let step: { model: string; embedded: number; remaining: number };
      try {
        step = await client.reindexPassages(id, BATCH);
      } catch (err) {
        if (!(err instanceof MemoryServerError) || err.status !== 409) throw err;
        report.agents.push({ agent: name, skipped: 'no embedding model: BM25 search only' });
        break;
      }
      total += step.embedded;
      if (step.embedded > 0) onProgress({ agent: name, ...step });
      // a batch that embedded nothing has nothing left it could embed
      if (step.remaining === 0 || step.embedded === 0) {
        report.agents.push({ agent: name, model: step.model, embedded: total, remaining: step.remaining });
        break;
      }
    }
    report.embedded += total;
  }
  return report;
}
