import expand from '../prompts/orchestrator/bfts_expand.md' with { type: 'text' };
import expandSelect from '../prompts/orchestrator/bfts_expand_select.md' with { type: 'text' };
import select from '../prompts/orchestrator/bfts_select.md' with { type: 'text' };
import lineage from '../prompts/orchestrator/lineage_decision.md' with { type: 'text' };
import rootSelect from '../prompts/orchestrator/root_idea_selector.md' with { type: 'text' };

/** The bundled orchestrator templates (workflow bfts.select_prompt and expand_select_prompt name the first two). */
export const BFTS_SELECT_PROMPT = select;
export const BFTS_EXPAND_SELECT_PROMPT = expandSelect;
export const BFTS_EXPAND_PROMPT = expand;
export const LINEAGE_DECISION_PROMPT = lineage;
export const ROOT_IDEA_SELECTOR_PROMPT = rootSelect;
