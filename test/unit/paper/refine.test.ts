import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { editProblem, refinedPath, reviewPoints, sectionSpan } from '../../../src/paper/refine.ts';
import type { PaperFacts } from '../../../src/paper/writing-facts.ts';
import type { ScienceData } from '../../../src/schema/science-data.ts';

const data = JSON.parse(readFileSync(join(import.meta.dir, '../../fixtures/science-data/sorting.json'), 'utf8')) as ScienceData;
const facts: PaperFacts = { data, figures: null, figuresDir: null, refs: [{ key: 'knuth1998', title: '', year: null }], bib: '' };

describe('reviewPoints', () => {
  test('a point goes to every section it names, a figure or table to the experiments; one naming none is unplaced', () => {
    const { points, unplaced } = reviewPoints(
      { weaknesses: ['The introduction and the conclusion overstate the gain.'], issues: ['[fig:ratio] The axis has no label.'], recommendations: ['Proofread.', 'The introduction and the conclusion overstate the gain.'] },
      null,
      null,
    );
    expect(Object.fromEntries(points)).toEqual({ introduction: ['The introduction and the conclusion overstate the gain.'], conclusion: ['The introduction and the conclusion overstate the gain.'], experiment: ['[fig:ratio] The axis has no label.'] });
    expect(unplaced).toEqual(['Proofread.']);
  });

  test("a text field (the rubric's weaknesses, with merge_reviews' figure lines) is a point a line", () => {
    const weaknesses = 'The method omits how ties are counted.\n\nFrom the figure review:\n- [fig:ratio] The axis has no label.';
    const { points, unplaced } = reviewPoints({ weaknesses, issues: ['[fig:ratio] The axis has no label.'] }, null, null);
    expect(Object.fromEntries(points)).toEqual({ method: ['The method omits how ties are counted.'], experiment: ['[fig:ratio] The axis has no label.'] });
    expect(unplaced).toEqual([]);
  });

  test('suggested revisions: a list or {"revisions": [...]}, the section by key or heading; anything else is refused', () => {
    expect(Object.fromEntries(reviewPoints({}, [{ section: 'Related Work', revision: 'Cite more.' }], null).points)).toEqual({ related_work: ['Cite more.'] });
    expect(Object.fromEntries(reviewPoints({}, { revisions: [{ section: 'method', suggestion: 'Say how.' }] }, null).points)).toEqual({ method: ['Say how.'] });
    expect(() => reviewPoints({}, 'revise it', null)).toThrow('suggested_revisions_json is neither a list nor {"revisions": [...]}');
    expect(() => reviewPoints({}, [{ section: 'method' }], null)).toThrow('suggested revision 1 has no known section or no revision text');
  });
});

describe('sectionSpan', () => {
  const tex = '\\section{Introduction}\nIntro text.\n\n\\section{Experiments}\nResults.\n\n\\begin{figure}x\\end{figure}\n\\section{Conclusion}\nDone.\n\n\\svcreferences\n\\bibliography{refs}\n';
  const at = (s: Parameters<typeof sectionSpan>[1]) => {
    const span = sectionSpan(tex, s);
    return span ? tex.slice(span.start, span.end) : null;
  };
  test('from the heading to the next one; the experiments end where the floats begin; the conclusion before the references', () => {
    expect(at('introduction')).toBe('Intro text.\n\n');
    expect(at('experiment')).toBe('Results.\n\n');
    expect(at('conclusion')).toBe('Done.\n\n');
    expect(at('method')).toBeNull();
  });
  test('the refined file is beside the draft', () => {
    expect(refinedPath('/c/paper/main.tex')).toBe('/c/paper/main_refined.tex');
    expect(refinedPath('/c/full_paper.tex')).toBe('/c/full_paper_refined.tex');
  });
});

describe('editProblem', () => {
  const before = 'We need \\svcclaim{best.comparisons}{20{,}573} against \\svcclaim{baseline.comparisons}{1{,}003{,}112}.';
  test('an edit keeping every anchor (filled or asked for) passes, and may add a known one', () => {
    expect(editProblem(before, 'Now \\svcclaim{baseline.comparisons} against \\svcclaim{best.comparisons}, \\svcclaim{improvement.comparisons.ratio} times fewer.', facts)).toBeNull();
  });
  test('a dropped anchor, an unknown anchor, a number of its own or a heading is refused', () => {
    expect(editProblem(before, 'We need \\svcclaim{best.comparisons} comparisons.', facts)).toBe('it drops the claim anchor baseline.comparisons; keep every \\svcclaim{<key>} the section had, with the same key');
    expect(editProblem(before, `${before} And \\svcclaim{made.up}.`, facts)).toContain('made.up, which are not measured values');
    expect(editProblem(before, `${before} About 17 percent.`, facts)).toContain('it states 17 as digits');
    expect(editProblem(before, `\\section{More}${before}`, facts)).toContain('\\section');
  });
});
