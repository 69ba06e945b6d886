import type { MemoryClient, Passage } from './client.ts';

/** Passages fetched per request when walking a whole agent. */
const PAGE = 500;

/**
 * Every passage of an agent, oldest first, a page at a time: an agent of any size is walked with
 * one page in memory. With `vectors`, each with its stored vector (svc's server).
 */
export async function* allPassages(client: MemoryClient, agentId: string, opts: { vectors?: boolean } = {}): AsyncGenerator<Passage> {
  let after: string | undefined;
  for (;;) {
    const page = await client.listPassages(agentId, { limit: PAGE, ...(after === undefined ? {} : { after }), ...(opts.vectors ? { vectors: true } : {}) });
    yield* page;
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) return;
    after = last.id;
  }
}
