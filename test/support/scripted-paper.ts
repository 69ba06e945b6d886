import { type OpenAIChatRequest, textOfRoles } from './scripted-request.ts';

/**
 * The scripted researcher as the author of the demo's paper (prompts paper/section, paper/review,
 * paper/revise, paper/abstract). It reads the anchor keys, figure labels and reference keys the
 * prompt lists and writes every number as \svcclaim{<key>}, \ref-ing the figures it is given and
 * citing only listed references, so the same request always gets the same section.
 */

type Listed = { keys: Set<string>; labels: string[]; refs: string[]; section: string };

function listed(body: OpenAIChatRequest): Listed {
  const text = textOfRoles(body, ['system']);
  const keys = new Set([...text.matchAll(/^- ([\w.-]+\.[\w.-]+): /gm)].map((m) => m[1] ?? ''));
  const labels = [...text.matchAll(/^- ((?:fig|tab):[\w:-]+): /gm)].map((m) => m[1] ?? '');
  const refsBlock = /## References[^\n]*\n([\s\S]*?)(?:\n## |\nRules:)/.exec(text)?.[1] ?? '';
  const refs = [...refsBlock.matchAll(/^- ([^:\s]+): /gm)].map((m) => m[1] ?? '');
  const section = /You (?:write|revise) the (\w[\w ]*?) section/.exec(text)?.[1] ?? '';
  return { keys, labels, refs, section };
}

/** `\svcclaim{key}` when the prompt lists the key, else a phrase without a number. */
const claim = (l: Listed, key: string, without: string) => (l.keys.has(key) ? `\\svcclaim{${key}}` : without);

function sectionText(l: Listed): string {
  const best = claim(l, 'best.comparisons', 'far fewer');
  const base = claim(l, 'baseline.comparisons', 'many more');
  const ratio = claim(l, 'improvement.comparisons.ratio', 'many');
  const count = claim(l, 'count.configurations', 'several');
  const figs = l.labels.filter((x) => x.startsWith('fig:'));
  const table = l.labels.find((x) => x.startsWith('tab:'));
  // every listed reference cited once, in three groups in the order listed
  const third = Math.ceil(l.refs.length / 3);
  const cite = (i: number) => {
    const keys = l.refs.slice(i * third, (i + 1) * third);
    return keys.length ? `~\\cite{${keys.join(',')}}` : '';
  };
  switch (l.section) {
    case 'introduction':
      return `Sorting by comparisons is a basic operation whose cost is counted in comparisons of elements. Insertion sort is simple but needs a number of comparisons that grows with the square of the input. We ask how far Shell sort with gaps that grow by a constant ratio can reduce that count on a fixed pseudo-random array, and which ratio is best. On our array the best configuration needs ${best} comparisons against ${base} for insertion sort, ${ratio} times fewer. The method and the experiments follow.`;
    case 'related work':
      return l.refs.length
        ? `Shell sort first sorts elements far apart, then ever closer, and what it costs depends on its sequence of gaps${cite(0)}. Gap sequences have been derived from theory and found by experiment, and bounds on the comparisons they need are known for the worst and the average case${cite(1)}. We follow the experimental line with an automated search over geometric ratios${cite(2)}.`
        : 'Shell sort improves on insertion sort by first sorting elements far apart, with gap sequences chosen either from theory or by experiment. Geometric sequences, whose gaps shrink by a constant ratio, are among the simplest, and the best ratio is usually found by measurement. We follow that practice with an automated search over the ratio.';
    case 'method':
      return 'Each configuration is one program that sorts the same fixed pseudo-random array and counts every comparison of two elements exactly; it also checks that its output is sorted, so a variant that does not sort has no result. The baseline is plain insertion sort. The Shell sort variants use gaps that shrink by a constant ratio down to one, and differ only in that ratio.';
    case 'experiments':
      return `We measured ${count} configurations. ${figs.map((f) => `Figure~\\ref{${f}}`).join(', ')}${figs.length ? ' show the measurements' : 'The measurements are'}${table ? `, and Table~\\ref{${table}} lists them all` : ''}. The best configuration needs ${best} comparisons, against ${base} for the baseline: ${ratio} times fewer. Insertion sort on another seed needs about as many comparisons as on the first, so the gain is not an accident of the input.`;
    case 'conclusion':
      return `A geometric gap sequence makes Shell sort need ${ratio} times fewer comparisons than insertion sort on our array. The result holds for one array size and the ratios tried; other sizes and inputs are the next step.`;
    default:
      return 'This section describes the study.';
  }
}

export function paperSectionReply(body: OpenAIChatRequest): string {
  return JSON.stringify({ latex: sectionText(listed(body)) });
}

/** Every section is good enough: the revision rounds end after the first review. */
export function paperReviewReply(): string {
  return JSON.stringify({ score: 8, issues: [], suggestions: ['Keep the comparison with the baseline in front.'] });
}

export function paperAbstractReply(body: OpenAIChatRequest): string {
  const l = listed(body);
  const abstract = `We search for the Shell sort gap ratio that needs the fewest element comparisons on a fixed pseudo-random array, against plain insertion sort as the baseline. The best configuration needs ${claim(l, 'best.comparisons', 'far fewer')} comparisons, against ${claim(l, 'baseline.comparisons', 'many more')} for insertion sort: ${claim(l, 'improvement.comparisons.ratio', 'many')} times fewer.`;
  return JSON.stringify({ title: 'Fewer Comparisons: A Geometric Gap Ratio for Shell Sort', abstract });
}

/**
 * paper/refine: the section as it is, every anchor kept, and one sentence per reviewer's point
 * taking it up (the point's words without digits or LaTeX specials, so no number is made up).
 */
export function paperRefineReply(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['system']);
  const now = /## The section now\n([\s\S]*?)\n## The reviewers' points on this section\n/.exec(text)?.[1]?.trim() ?? '';
  const points = /## The reviewers' points on this section\n([\s\S]*?)\n\nAct on/.exec(text)?.[1] ?? '';
  const acted = [...points.matchAll(/^- (.+)$/gm)].map((m) => {
    // a figure review's point starts with its figure's label, which is no prose
    const point = (m[1] ?? '').replace(/^\[[^\]]*\]\s*/, '').replace(/[\d%\\{}$&#_^~[\]]/g, '').replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
    return `We note, as the review did, that ${point.charAt(0).toLowerCase()}${point.slice(1)}.`;
  });
  return JSON.stringify({ latex: [now, ...acted].join('\n') });
}
