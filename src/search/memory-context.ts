import { oneLine } from '../core/errors.ts';
import { NODE_KINDS } from '../memory/research/entries.ts';
import { NodeMemory } from '../memory/research/node-memory.ts';
import type { RunContext, SearchNode } from './contract.ts';

/** The text a select template gets when no memory is at hand. */
export const NO_MEMORY = '(no memory)';
const RESULTS = 5;

/**
 * The {memory_context} of select_next_node: what the run's memory holds about the goal among
 * the entries of the candidates' ancestors (the work they would build on). Only entry texts and
 * node ids go into the prompt, never scores or times. A backend that cannot be reached is said
 * once in the log and not asked again in this search.
 */
export class SelectMemory {
  private memory: NodeMemory | null = null;
  private off = false;

  constructor(private readonly ctx: RunContext) {}

  async context(candidates: readonly SearchNode[]): Promise<string> {
    if (this.off) return NO_MEMORY;
    const ids = [...new Set(candidates.flatMap((c) => c.ancestor_ids))];
    if (!ids.length) return NO_MEMORY;
    try {
      this.memory ??= NodeMemory.forCheckpoint(this.ctx.checkpointDir, this.ctx.env);
      const found = await this.memory.search(this.ctx.goal.slice(0, 500), ids, NODE_KINDS, RESULTS);
      return found.length ? found.map((e) => `- [${e.node_id}] ${e.text.replace(/\s+/g, ' ').trim().slice(0, 400)}`).join('\n') : NO_MEMORY;
    } catch (err) {
      this.off = true;
      this.ctx.log(`bfts select_next_node: selecting without memory from now on: ${oneLine(err)}`);
      return NO_MEMORY;
    }
  }
}
