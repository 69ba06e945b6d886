import type { DraftIdea } from './idea-file.ts';
import type { Paper } from './papers.ts';

/** Papers a prompt shows, and how much of each abstract: enough to place an idea, not a corpus. */
export const PROMPT_PAPERS = 20;
const ABSTRACT_CHARS = 600;

/** The part of every user message that does not change during a discussion. */
export function briefing(topic: string, experimentContext: string, papers: readonly Paper[]): string {
  const shown = papers.slice(0, PROMPT_PAPERS);
  const literature = shown.length
    ? shown.map((p, i) => `${i + 1}. ${p.title}${p.url ? ` <${p.url}>` : ''}\n   ${cut(p.abstract) || '(no abstract)'}`).join('\n')
    : '(no papers were found: rely on what you know of the field, and say where a claim of novelty is unchecked)';
  return `# Topic\n${topic.trim()}\n\n# Experiment context\n${experimentContext.trim() || '(none given)'}\n\n# Literature (${shown.length} paper${shown.length === 1 ? '' : 's'})\n${literature}`;
}

/** Every agent's current ideas, labelled so critiques can name them. */
export function proposalsBlock(proposals: readonly (readonly DraftIdea[])[]): string {
  return proposals
    .map((ideas, a) =>
      ideas
        .map((d, i) => `## Agent ${a + 1}, idea ${i + 1}: ${d.title}\n${d.description}\nNovelty: ${d.novelty}\nFeasibility: ${d.feasibility}\nPlan:\n${d.experiment_plan}`)
        .join('\n\n'),
    )
    .join('\n\n');
}

export function critiquesBlock(critiques: readonly string[]): string {
  return critiques.length ? critiques.map((c, a) => `## Agent ${a + 1}\n${c.trim() || '(no critique)'}`).join('\n\n') : '(none yet: this is the first round)';
}

function cut(text: string): string {
  const t = text.trim();
  return t.length <= ABSTRACT_CHARS ? t : `${t.slice(0, ABSTRACT_CHARS)}…`;
}
