import keywordsTemplate from '../prompts/pipeline/keywords.md' with { type: 'text' };
import { oneLine } from '../core/errors.ts';
import { isMapping } from '../core/values.ts';
import type { ModelClient } from '../llm/client.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';

const MAX_KEYWORDS = 8;
const MAX_KEYWORD_CHARS = 80;

export type Keywords = { keywords: string[]; by: 'model' | 'deterministic'; note: string | null };

/**
 * Search keywords for the related-work stage: the paper model's, else (no model, a failed call)
 * the most frequent content words of the idea and the goal, with a note saying why.
 */
export async function extractKeywords(model: ModelClient | string, goal: string, idea: string | null, signal?: AbortSignal): Promise<Keywords> {
  if (typeof model === 'string') return { keywords: frequentWords(goal, idea), by: 'deterministic', note: `no model (${model})` };
  try {
    const answer = await model.completeJson<{ keywords: string[] }>(
      {
        role: 'paper',
        messages: [
          { role: 'system', content: fillOwnPrompt(keywordsTemplate, { goal: goal || '(not given)', idea: idea ?? '(none recorded)' }) },
          { role: 'user', content: 'Give the keywords. Answer with the JSON object only.' },
        ],
        meta: { phase: 'paper', component: 'pipeline', op: 'keywords' },
        signal,
      },
      checkAnswer,
    );
    return { keywords: [...new Set(answer.keywords.map((k) => k.trim()))].slice(0, MAX_KEYWORDS), by: 'model', note: null };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { keywords: frequentWords(goal, idea), by: 'deterministic', note: `the model gave none (${oneLine(err)})` };
  }
}

function checkAnswer(v: unknown): string | null {
  if (!isMapping(v) || !Array.isArray(v.keywords)) return 'the answer must be an object with a keywords list';
  if (v.keywords.length === 0) return 'keywords is empty';
  if (!v.keywords.every((k) => typeof k === 'string' && k.trim() !== '' && k.length <= MAX_KEYWORD_CHARS)) return `every keyword must be a non-empty phrase of at most ${MAX_KEYWORD_CHARS} characters`;
  return null;
}

/** Words that say nothing about a topic. */
const STOP = new Set(
  'about above after again against also among another because been before being below between both cannot could does doing down during each every fewer from further have having here into itself just less more most much must need only other over same should since some such than that their them then there these they this those through under until using very what when where which while with within without would your each make made find found start then once per one two three run runs'.split(' '),
);

/** The most frequent words of four letters or more in the idea's title and the goal, title words first on ties. */
export function frequentWords(goal: string, idea: string | null, n = 6): string[] {
  const text = `${idea ?? ''}\n${goal.replace(/<!--[\s\S]*?-->/g, '')}`.toLowerCase();
  const counts = new Map<string, number>();
  for (const w of text.match(/[a-z][a-z-]{3,}/g) ?? []) if (!STOP.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, n).map(([w]) => w);
}
