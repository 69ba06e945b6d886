import { allNumbers, type OpenAIChatRequest, textOfRoles } from './scripted-request.ts';

/**
 * The zero-based index of the best candidate: candidate lines start `[i]` (or `i.` / `i)`); a
 * line's score is its `_scientific_score`, else a `score`, else fewer comparisons is better.
 * Ties go to the lower index; no readable candidate gives "0".
 */
export function selectReply(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['user', 'system']);
  let best: { index: number; score: number } | null = null;
  for (const line of text.split('\n')) {
    const m = /^\s*(?:\[(\d+)\]|(\d+)[.):])\s/.exec(line);
    if (!m) continue;
    const index = Number(m[1] ?? m[2]);
    const score = lineScore(line);
    if (!best || score > best.score || (score === best.score && index < best.index)) best = { index, score };
  }
  return String(best?.index ?? 0);
}

/** A candidate line without any number to go by scores lowest, so any scored line beats it. */
function lineScore(line: string): number {
  const sci = /_scientific_score\\*"?\s*[:=]\s*(-?\d+(?:\.\d+)?)/.exec(line)?.[1];
  if (sci !== undefined) return Number(sci);
  const score = /\bscore\\*"?\s*[:=]\s*(-?\d+(?:\.\d+)?)/i.exec(line)?.[1];
  if (score !== undefined) return Number(score);
  const comparisons = /comparisons\\*"?\s*[:=]\s*(\d+(?:\.\d+)?)/.exec(line)?.[1];
  if (comparisons !== undefined) return -Number(comparisons);
  return -Infinity;
}

/** Ratios worth trying, best guesses first. */
const RATIOS = [2.25, 2.4, 2.2, 2.6, 1.8, 2.8, 3, 2.1, 2.5];
const LABELS = ['improve', 'ablation', 'validation'] as const;

/**
 * One child for the node being expanded: improve (an untried gap ratio), ablation (Shell's halving,
 * ratio 2) or validation (the parent's ratio on another seeded array), cycling with the number of
 * ratios and seeds the request mentions beyond the parent's own (its children so far).
 */
export function expandReply(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['system', 'user']);
  const mentioned = allNumbers(text, 'gap_ratio');
  const parent = parentPart(text) === text ? (mentioned[0] ?? null) : (allNumbers(parentPart(text), 'gap_ratio')[0] ?? null);
  const parentSeed = allNumbers(parentPart(text), 'seed')[0] ?? null;
  // each earlier child named a ratio or a seed of its own
  const tried = mentioned.filter((r) => r !== parent).length + allNumbers(text, 'seed').filter((s) => s !== parentSeed).length;
  const label = LABELS[tried % LABELS.length] ?? 'improve';
  const untried = RATIOS.find((r) => !mentioned.includes(r)) ?? 2.3;
  const from = parent === null ? 'the insertion-sort baseline' : `the parent's gap ratio ${parent}`;
  let direction: string;
  if (label === 'improve') {
    direction = `Replace ${from} with Shell sort whose gaps grow geometrically: gap_ratio=${untried}, and count comparisons on the same seeded array.`;
  } else if (label === 'ablation') {
    const ratio = mentioned.includes(2) ? untried : 2;
    direction = `Ablate the gap tuning: run Shell's original halving-like sequence, gap_ratio=${ratio}, instead of ${from}, to see how much the ratio matters.`;
  } else {
    const seed = 7 + tried;
    direction = parent === null ? `Validate the baseline on a second array: insertion sort with seed=${seed}.` : `Validate gap_ratio=${parent} on a second pseudo-random array, seed=${seed}, to check the count is not an accident of one input.`;
  }
  return JSON.stringify([{ label, direction }]);
}

/** The text before a section of children or siblings starts (all of it when there is none). */
function parentPart(text: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /^\W*(?:already[- ]spawned |existing |previous )?(?:children|child nodes|siblings)\b/i.test(l));
  return at < 0 ? text : lines.slice(0, at).join('\n');
}

export function lineageReply(): string {
  return JSON.stringify({ action: 'continue', target_idea_index: null, disable_generate_ideas: false, rationale: 'the comparison count is still falling; keep refining the gap ratio' });
}

export function rootIdeaReply(): string {
  return JSON.stringify({ index: 0, rationale: 'the first idea measures the primary metric directly and is the cheapest to test' });
}
