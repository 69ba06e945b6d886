import { fillOwnPrompt } from '../prompts/templates.ts';
import agentText from '../prompts/idea/agent.md' with { type: 'text' };
import discussionText from '../prompts/idea/discussion.md' with { type: 'text' };
import synthesisText from '../prompts/idea/synthesis.md' with { type: 'text' };
import maProposeText from '../prompts/idea/ma_propose.md' with { type: 'text' };
import maTurnText from '../prompts/idea/ma_turn.md' with { type: 'text' };
import maSynthesisText from '../prompts/idea/ma_synthesis.md' with { type: 'text' };

export type IdeaPrompt = 'agent' | 'discussion' | 'synthesis' | 'ma_propose' | 'ma_turn' | 'ma_synthesis';

const TEMPLATES: Readonly<Record<IdeaPrompt, string>> = {
  agent: agentText,
  discussion: discussionText,
  synthesis: synthesisText,
  ma_propose: maProposeText,
  ma_turn: maTurnText,
  ma_synthesis: maSynthesisText,
};

/**
 * The idea/<name> template with its {placeholders} filled; `{{` and `}}` stand for literal braces.
 * A placeholder without a value is a bug in the caller, so it throws rather than sending a hole.
 */
export function ideaPrompt(name: IdeaPrompt, values: Readonly<Record<string, string | number>>): string {
  return fillOwnPrompt(TEMPLATES[name], values, `idea/${name}`);
}
