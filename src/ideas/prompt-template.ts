import { fillOwnPrompt } from '../prompts/templates.ts';
import agentText from '../prompts/idea/agent.md' with { type: 'text' };
import discussionText from '../prompts/idea/discussion.md' with { type: 'text' };
import synthesisText from '../prompts/idea/synthesis.md' with { type: 'text' };

export type IdeaPrompt = 'agent' | 'discussion' | 'synthesis';

const TEMPLATES: Readonly<Record<IdeaPrompt, string>> = {
  agent: agentText,
  discussion: discussionText,
  synthesis: synthesisText,
};

/**
 * The idea/<name> template with its {placeholders} filled; `{{` and `}}` stand for literal braces.
 * A placeholder without a value is a bug in the caller, so it throws rather than sending a hole.
 */
export function ideaPrompt(name: IdeaPrompt, values: Readonly<Record<string, string | number>>): string {
  return fillOwnPrompt(TEMPLATES[name], values, `idea/${name}`);
}
