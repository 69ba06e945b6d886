import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonObject } from '../core/json-object.ts';
import { isMapping } from '../core/values.ts';

/** How much of experiment.md a context carries: the goal and setup are at the top. */
const GOAL_CHARS = 3000;
const IDEA_CHARS = 1500;

/** The experiment's goal (the checkpoint's experiment.md, else `fallback`), without comments, trimmed. */
export function experimentGoal(checkpointDir: string, fallback = ''): string {
  let text = fallback;
  try {
    text = readFileSync(join(checkpointDir, 'experiment.md'), 'utf8');
  } catch {
    // a checkpoint of another tool may keep the goal only in its tree
  }
  return text.replace(/<!--[\s\S]*?-->/g, '').trim().slice(0, GOAL_CHARS);
}

/** The idea the search started from (idea.json's first, where a root choice puts the chosen one), as "title: description"; null without one. */
export function chosenIdea(checkpointDir: string): string | null {
  let file: Record<string, unknown> | null;
  try {
    file = readJsonObject(join(checkpointDir, 'idea.json'));
  } catch {
    return null;
  }
  const idea = Array.isArray(file?.ideas) ? file.ideas[0] : undefined;
  if (!isMapping(idea) || typeof idea.title !== 'string') return null;
  const desc = typeof idea.description === 'string' ? idea.description.trim() : '';
  return (desc ? `${idea.title.trim()}: ${desc}` : idea.title.trim()).slice(0, IDEA_CHARS);
}
