import { modelCallFailure } from '../core/errors.ts';
import { withoutThinking } from './answer-text.ts';
import type { RunContext, SearchNode } from './contract.ts';
import { diversityBonus, fallbackPick, fallbackScore, formulaName, type ScoreInputs } from './frontier-score.ts';
import { fillPrompt } from '../prompts/templates.ts';

/** At most this many candidates are shown to the model: the best by the fallback score, so a prompt stays small in a large tree. */
export const MAX_SHOWN_CANDIDATES = 20;

export type Selection = {
  op: 'select_next_node' | 'select_best_to_expand';
  template: string;
  /** placeholders besides {candidates} */
  values: Record<string, string>;
  signal: AbortSignal;
};

/**
 * Asks the bfts model to choose among `nodes` with one of the selection templates; a single
 * candidate needs no call. An answer that is not an index of the shown list, or a failed call,
 * degrades to the fallback formula (logged in one line).
 */
export async function selectNode(ctx: RunContext, nodes: readonly SearchNode[], inp: ScoreInputs, sel: Selection): Promise<SearchNode> {
  if (nodes.length === 1) return nodes[0] as SearchNode;
  const shown = shownCandidates(nodes, inp);
  const prompt = fillPrompt(sel.template, { ...sel.values, candidates: candidateLines(shown, inp) });
  let why: string;
  try {
    const answer = await ctx.model.complete({
      role: 'bfts',
      messages: [
        { role: 'system', content: prompt },
        { role: 'user', content: `Choose one of the ${shown.length} candidates. Reply with one zero-based index.` },
      ],
      meta: { phase: 'bfts', component: 'bfts', op: sel.op, node_id: shown[0]?.id },
      signal: sel.signal,
    });
    const i = parseIndex(answer.text, shown.length);
    if (i !== null) return shown[i] as SearchNode;
    why = `the answer '${oneLineText(answer.text)}' is not an index from 0 to ${shown.length - 1}`;
  } catch (err) {
    why = modelCallFailure(err);
  }
  const pick = fallbackPick(nodes, inp);
  ctx.log(`bfts ${sel.op}: ${why}; chose ${pick.id} by the ${formulaName(inp.settings)} formula`);
  return pick;
}

/** The candidates shown: all when few, else the best by the fallback score in their original order. */
export function shownCandidates(nodes: readonly SearchNode[], inp: ScoreInputs): SearchNode[] {
  if (nodes.length <= MAX_SHOWN_CANDIDATES) return [...nodes];
  const ranked = nodes.map((n, i) => ({ n, i, s: fallbackScore(n, inp) })).sort((a, b) => b.s - a.s || a.i - b.i);
  return ranked
    .slice(0, MAX_SHOWN_CANDIDATES)
    .sort((a, b) => a.i - b.i)
    .map((r) => r.n);
}

/** One line per candidate: what the model needs to compare them, nothing that varies between replays. */
export function candidateLines(nodes: readonly SearchNode[], inp: ScoreInputs): string {
  return nodes
    .map((n, i) => {
      const metrics = JSON.stringify(n.metrics).slice(0, 400);
      const summary = (n.eval_summary ?? n.error_log ?? '').replace(/\s+/g, ' ').slice(0, 150);
      return `[${i}] id=${n.id.slice(-8)}, depth=${n.depth}, label=${n.label}, status=${n.status}, has_real_data=${n.has_real_data}, metrics=${metrics}, summary=${summary}, diversity_bonus=${diversityBonus(n.label, inp.labelHistory)}`;
    })
    .join('\n');
}

/** The index a reply names: a bare integer (brackets, backticks or a final period allowed), within range. */
export function parseIndex(text: string, count: number): number | null {
  const m = /^[`[\s]*(\d+)[`\]\s.]*$/.exec(withoutThinking(text).trim());
  if (!m) return null;
  const i = Number(m[1]);
  return i < count ? i : null;
}

function oneLineText(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 60 ? `${t.slice(0, 60)}…` : t;
}
