import { type OpenAIChatRequest, textOfRoles } from './scripted-request.ts';

/**
 * The scripted researcher as the rubric generator and auditor (prompts replicate/rubric_axes,
 * replicate/rubric_leaves, replicate/rubric_one_stage, replicate/rubric_audit) for the demo's
 * Shell-sort paper: three axes (code development, execution, result analysis) and leaves about the
 * sort program counting comparisons, the gap ratios tried and the best ratio's comparisons. Every
 * number in a leaf is one the paper's text holds; a leaf falls back to words where it holds none.
 */

type Axis = { id: string; requirements: string; weight: number };

const AXES: Axis[] = [
  { id: 'code-development', requirements: 'The sort programs are written as the paper describes: insertion sort and Shell sort with geometric gaps, each counting comparisons.', weight: 2 },
  { id: 'code-execution', requirements: 'reproduce.sh runs every configuration the paper measured on the same array and records its comparisons.', weight: 1 },
  { id: 'result-analysis', requirements: "The comparisons the run prints match the paper's results.", weight: 2 },
];

function paperOf(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['system']);
  return /## The paper\n([\s\S]*?)\n## (?:Answer|Leaves)/.exec(text)?.[1] ?? '';
}

/** The paper's numbers the leaves quote, as the paper writes them. */
function paperNumbers(paper: string) {
  const best = /best configuration needs ([\d][\d,.]*\d|\d) comparisons/i.exec(paper)?.[1];
  const base = /against ([\d][\d,.]*\d|\d) for (?:the baseline|insertion sort)/i.exec(paper)?.[1];
  const times = /([\d][\d,.]*\d|\d) times fewer/i.exec(paper)?.[1];
  const ratios = [...new Set([...paper.matchAll(/\bratio (\d+(?:\.\d+)?)\b/gi)].map((m) => m[1] ?? ''))];
  const bestRatio = /\bbest(?: of them)?, Shell sort, gap ratio (\d+(?:\.\d+)?)/i.exec(paper)?.[1];
  const size = /\bn = (\d+)\b/.exec(paper)?.[1];
  const seed = /\bseed = (\d+)\b/.exec(paper)?.[1];
  return { best, base, times, ratios, bestRatio, size, seed };
}

function leavesFor(axis: string, paper: string) {
  const n = paperNumbers(paper);
  const leaf = (id: string, requirements: string, task_category: string, weight = 1) => ({ id, requirements, weight, task_category });
  if (axis.startsWith('code-development'))
    return [
      leaf('counts-comparisons', `The program sorts one fixed pseudo-random array${n.size && n.seed ? ` of ${n.size} elements made with seed ${n.seed}` : ''} and counts every comparison of two elements exactly.`, 'Code Development', 2),
      leaf('insertion-baseline', 'Insertion sort is implemented as the baseline and counts its comparisons the same way.', 'Code Development'),
      leaf('geometric-gaps', 'Shell sort is implemented with gaps that shrink by a constant ratio down to one, the ratio a parameter of the program.', 'Code Development', 2),
      leaf('checks-sorted', 'The program checks that its output is sorted and gives no result for a variant that does not sort.', 'Code Development'),
    ];
  if (axis.startsWith('code-execution'))
    return [
      leaf('runs-all-ratios', `reproduce.sh runs the baseline and every gap ratio the paper tried${n.ratios.length ? ` (${n.ratios.join(', ')})` : ''} on the same array.`, 'Code Execution', 2),
      leaf('prints-comparisons', "The run's log shows the number of comparisons of every configuration.", 'Code Execution'),
      leaf('all-sorted', "The run's log shows that every configuration's output is sorted.", 'Code Execution'),
    ];
  return [
    leaf('baseline-matches', n.base ? `The baseline's comparisons in the run equal the paper's ${n.base}.` : "The baseline's comparisons in the run equal the paper's.", 'Result Analysis'),
    leaf('best-matches', n.best ? `The best gap ratio's comparisons in the run equal the paper's ${n.best}.` : "The best gap ratio's comparisons in the run equal the paper's.", 'Result Analysis', 2),
    leaf('improvement-matches', n.times ? `The best configuration needs ${n.times} times fewer comparisons than insertion sort, as the paper reports.` : 'The best configuration needs fewer comparisons than insertion sort, as the paper reports.', 'Result Analysis'),
    leaf('best-ratio-same', n.bestRatio ? `The gap ratio with the fewest comparisons in the run is ${n.bestRatio}, the paper's best.` : 'The gap ratio with the fewest comparisons in the run is the one the paper reports as best.', 'Result Analysis'),
  ];
}

export function rubricAxesReply(): string {
  return JSON.stringify({ axes: AXES });
}

export function rubricLeavesReply(body: OpenAIChatRequest): string {
  const axis = /## This axis\n(\S+)/.exec(textOfRoles(body, ['system']))?.[1] ?? '';
  return JSON.stringify({ leaves: leavesFor(axis, paperOf(body)) });
}

export function rubricOneStageReply(body: OpenAIChatRequest): string {
  const paper = paperOf(body);
  return JSON.stringify({ axes: AXES.map((a) => ({ ...a, leaves: leavesFor(a.id, paper) })) });
}

/** A leaf quoting a number the paper does not hold has no evidence in it; one about intent cannot be checked. */
export function rubricAuditReply(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['system']);
  const paper = paperOf(body);
  const block = /## Leaves \(\d+\)\n([\s\S]*?)\n## Answer/.exec(text)?.[1] ?? '';
  const leaves = [...block.matchAll(/^- (\S+): (.*)$/gm)].map((m) => {
    const requirement = m[2] ?? '';
    const foreign = (requirement.match(/\d[\d,.]*\d|\d/g) ?? []).find((x) => !paper.includes(x));
    const intent = /\b(intend\w*|intent\w*|believes?|wanted)\b/i.test(requirement);
    const reason = [foreign ? `the paper does not give ${foreign}` : '', intent ? 'no output shows what the authors intended' : ''].filter(Boolean).join('; ');
    return { id: m[1] ?? '', no_paper_evidence: Boolean(foreign), unverifiable: intent, reason };
  });
  return JSON.stringify({ leaves });
}
