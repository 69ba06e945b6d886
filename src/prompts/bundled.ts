import expandSelect from './orchestrator/bfts_expand_select.md' with { type: 'text' };
import select from './orchestrator/bfts_select.md' with { type: 'text' };

/** Prompt templates a workflow may name (bfts.select_prompt, bfts.expand_select_prompt), by name. */
export const BUNDLED_PROMPTS: Readonly<Record<string, string>> = {
  'orchestrator/bfts_select': select,
  'orchestrator/bfts_expand_select': expandSelect,
};
