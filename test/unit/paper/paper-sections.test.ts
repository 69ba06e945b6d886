import { describe, expect, test } from 'bun:test';
import { headingKind, paperSections, sectionAt } from '../../../src/paper/paper-sections.ts';

const kinds = (tex: string) => paperSections(tex).map((s) => [s.kind, s.heading]);

describe('paperSections', () => {
  test('front matter, the abstract, each top-level section; subsections stay in theirs', () => {
    const tex = '\\begin{document}\n\\maketitle\n\\begin{abstract}\nA.\n\\end{abstract}\n\\section{Introduction}\nI.\n\\subsection{Setup details}\nS.\n\\section{Experiments}\nE.\n\\section*{Conclusions and Future Work}\nC.\n\\end{document}\n';
    expect(kinds(tex)).toEqual([
      ['front_matter', 'front matter'],
      ['abstract', 'abstract'],
      ['front_matter', 'front matter'],
      ['introduction', 'Introduction'],
      ['results', 'Experiments'],
      ['conclusion', 'Conclusions and Future Work'],
    ]);
    const sections = paperSections(tex);
    expect(sectionAt(sections, tex.indexOf('S.'))?.kind).toBe('introduction');
    expect(sectionAt(sections, tex.indexOf('A.'))?.kind).toBe('abstract');
    expect(sectionAt(sections, tex.indexOf('\\end{document}'))).toBeNull();
  });

  test('after \\appendix every section is appendix; the bibliography is references; display math is equations', () => {
    const tex = '\\section{Method}\nWe set\n\\begin{equation}\nx = 0.5\n\\end{equation}\nand \\[ y = 2 \\] then.\n\\appendix\n\\section{Proofs}\nP.\n\\bibliography{refs}\n';
    expect(kinds(tex)).toEqual([
      ['method', 'Method'],
      ['equations', 'equation'],
      ['method', 'Method'],
      ['equations', '\\['],
      ['method', 'Method'],
      ['appendix', 'appendix'],
      ['appendix', 'Proofs'],
      ['references', 'references'],
    ]);
    expect(sectionAt(paperSections(tex), tex.indexOf('0.5'))?.kind).toBe('equations');
  });

  test('headings are read by their words, the stricter kind first; others are other', () => {
    expect(headingKind('Results and Discussion')).toBe('results');
    expect(headingKind('Background')).toBe('related_work');
    expect(headingKind('Experimental Setup')).toBe('results');
    expect(headingKind('Our Approach')).toBe('method');
    expect(headingKind('Threats to Validity')).toBe('limitations');
    expect(headingKind('Discussion')).toBe('discussion');
    expect(headingKind('Acknowledgements')).toBe('other');
    expect(headingKind('Code availability')).toBe('other');
  });

  test('a heading naming a checked kind and an excluded one is the checked kind; a plain excluded heading stays excluded', () => {
    expect(headingKind('Results and Comparison with Prior Work')).toBe('results');
    expect(headingKind('Background and Results')).toBe('results');
    expect(headingKind('Related Work and Conclusions')).toBe('conclusion');
    expect(headingKind('Introduction and Background')).toBe('introduction');
    expect(headingKind('Method and Related Approaches')).toBe('method');
    expect(headingKind('Supplementary Results')).toBe('results');
    expect(headingKind('References')).toBe('references');
    expect(headingKind('Bibliography')).toBe('references');
    expect(headingKind('Appendix')).toBe('appendix');
    expect(headingKind('Related Work')).toBe('related_work');
    const tex = '\\section{Background and Results}\nWe reach 57.\n';
    expect(sectionAt(paperSections(tex), tex.indexOf('57'))?.kind).toBe('results');
  });

  test('a heading in a comment is not a heading', () => {
    expect(kinds('\\section{Introduction}\n% \\section{Results}\nText.\n')).toEqual([['introduction', 'Introduction']]);
  });
});
