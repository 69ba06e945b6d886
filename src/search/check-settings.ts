import { InputError } from '../core/errors.ts';
import type { RunSettings } from './contract.ts';

const NEEDED: Readonly<Record<'selectPrompt' | 'expandSelectPrompt', { key: string; names: string[] }>> = {
  selectPrompt: { key: 'bfts.select_prompt', names: ['experiment_goal', 'memory_context', 'candidates'] },
  expandSelectPrompt: { key: 'bfts.expand_select_prompt', names: ['experiment_goal', 'candidates'] },
};

/** Refuses settings the search cannot run with, before any node starts: one error naming the setting. */
export function checkSettings(s: RunSettings): void {
  const whole = (v: number, min: number) => Number.isInteger(v) && v >= min;
  if (!whole(s.maxNodes, 1)) throw new InputError(`the node cap must be a whole number of at least 1, not ${s.maxNodes}`, 'set SVC_MAX_NODES or bfts.max_nodes');
  if (!whole(s.maxDepth, 0)) throw new InputError(`the depth cap must be a whole number of at least 0, not ${s.maxDepth}`, 'set SVC_MAX_DEPTH or bfts.max_depth');
  if (!whole(s.parallel, 1)) throw new InputError(`the number of parallel nodes must be a whole number of at least 1, not ${s.parallel}`, 'set SVC_PARALLEL or bfts.parallel');
  if (!whole(s.maxExpansionsPerNode, 1)) throw new InputError(`expansions per node must be a whole number of at least 1, not ${s.maxExpansionsPerNode}`, 'set bfts.max_expansions_per_node');
  if (!(s.timeoutNodeS > 0)) throw new InputError(`the per-node time limit must be above 0 s, not ${s.timeoutNodeS}`, 'set SVC_TIMEOUT_NODE or bfts.timeout_node');
  for (const [field, { key, names }] of Object.entries(NEEDED)) {
    const text = s[field as keyof typeof NEEDED];
    const missing = names.filter((n) => !text.includes(`{${n}}`));
    if (missing.length) throw new InputError(`the ${key} template lacks ${missing.map((n) => `{${n}}`).join(', ')}`, 'add the placeholders to the template; it must answer with one zero-based index');
  }
}
