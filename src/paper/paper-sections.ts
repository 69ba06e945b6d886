import { lineAt, maskComments } from './tex-text.ts';

/**
 * The kinds of section the claim gate's coverage policy names (claim_gate_policy
 * numeric_coverage.target_sections). A paper's headings are free text; each is read as one of
 * these, `other` when it is none (a code availability statement, acknowledgements).
 */
const SECTION_KINDS = ['abstract', 'introduction', 'related_work', 'method', 'results', 'conclusion', 'discussion', 'limitations', 'references', 'appendix', 'equations', 'front_matter', 'other'] as const;
export type SectionKind = (typeof SECTION_KINDS)[number];

export type PaperSection = {
  kind: SectionKind;
  /** the heading as written; `abstract`, `front matter`, a display-math environment's name for the others */
  heading: string;
  /** offsets in the source */
  start: number;
  end: number;
  line: number;
};

/**
 * Heading words to kinds, in this order: a heading naming two (Results and Discussion, Background
 * and Results) is read as the first. The kinds the policy checks strictly come first, then those it
 * warns on, then the method, and last those it leaves out (related work, appendix, references), so
 * that a number is never checked less for a second word in its heading.
 */
const HEADING_KINDS: [RegExp, SectionKind][] = [
  [/\babstract\b/i, 'abstract'],
  [/\b(?:results?|experiments?|experimental|evaluation|empirical|benchmarks?|measurements?|findings)\b/i, 'results'],
  [/\b(?:conclusions?|concluding|summary|future work)\b/i, 'conclusion'],
  [/\bintroduction\b/i, 'introduction'],
  [/\bdiscussion\b/i, 'discussion'],
  [/\b(?:limitations?|threats to validity)\b/i, 'limitations'],
  [/\b(?:methods?|methodology|approach|design|implementation|algorithms?|setup|model|framework|system)\b/i, 'method'],
  [/\b(?:related|prior work|previous work|background|literature)\b/i, 'related_work'],
  [/\b(?:appendix|appendices|supplementa)/i, 'appendix'],
  [/\b(?:references|bibliography)\b/i, 'references'],
];

/** Top-level headings start a section; subsections and paragraphs stay in the section they are in. */
const HEADING = /\\(?:section|chapter)\*?\s*(?:\[[^\]]*\]\s*)?\{((?:[^{}]|\{[^{}]*\})*)\}/g;
/** Displayed equations: what target_sections calls `equations`. */
const DISPLAY = /\\begin\{(equation|align|gather|multline|eqnarray|displaymath|flalign|alignat)(\*?)\}|\\\[|\$\$/g;

export function headingKind(heading: string): SectionKind {
  for (const [re, kind] of HEADING_KINDS) if (re.test(heading)) return kind;
  return 'other';
}

/**
 * A LaTeX paper split into the parts the gate checks differently, in order and without gaps from
 * the first to the last offset: the front matter, the abstract environment, each top-level
 * section (to the next heading, `\appendix`, the bibliography or `\end{document}`), the appendix
 * and the references; displayed equations are parts of their own, cut out of the section they
 * stand in. Comments are not read.
 */
export function paperSections(tex: string): PaperSection[] {
  const src = maskComments(tex);
  const cuts: { at: number; kind: SectionKind; heading: string }[] = [{ at: 0, kind: 'front_matter', heading: 'front matter' }];
  for (const m of src.matchAll(HEADING)) {
    const heading = (m[1] ?? '').replace(/\s+/g, ' ').trim();
    cuts.push({ at: m.index, kind: headingKind(heading), heading });
  }
  const abstract = /\\begin\{abstract\}/.exec(src);
  if (abstract) {
    cuts.push({ at: abstract.index, kind: 'abstract', heading: 'abstract' });
    const close = src.indexOf('\\end{abstract}', abstract.index);
    if (close >= 0) cuts.push({ at: close + '\\end{abstract}'.length, kind: 'front_matter', heading: 'front matter' });
  }
  const appendix = /\\appendix\b/.exec(src);
  const bibliography = /\\begin\{thebibliography\}|\\bibliography\s*\{|\\printbibliography\b/.exec(src);
  const endDocument = src.indexOf('\\end{document}');
  cuts.sort((a, b) => a.at - b.at);
  // after \appendix every section is appendix; after the bibliography everything is references
  for (const c of cuts) {
    if (bibliography && c.at >= bibliography.index) c.kind = 'references';
    else if (appendix && c.at >= appendix.index && c.kind !== 'references') c.kind = 'appendix';
  }
  if (appendix) cuts.push({ at: appendix.index, kind: bibliography && appendix.index >= bibliography.index ? 'references' : 'appendix', heading: 'appendix' });
  if (bibliography) cuts.push({ at: bibliography.index, kind: 'references', heading: 'references' });
  cuts.sort((a, b) => a.at - b.at);
  const end = endDocument < 0 ? src.length : endDocument;
  const sections: PaperSection[] = [];
  cuts.forEach((c, i) => {
    const to = Math.min(end, cuts[i + 1]?.at ?? end);
    if (to > c.at) sections.push({ kind: c.kind, heading: c.heading, start: c.at, end: to, line: lineAt(tex, c.at) });
  });
  return cutEquations(src, tex, sections);
}

/** The sections with each displayed equation made a part of its own. */
function cutEquations(src: string, tex: string, sections: PaperSection[]): PaperSection[] {
  const displays: { start: number; end: number; heading: string }[] = [];
  for (const m of src.matchAll(DISPLAY)) {
    if (displays.some((d) => m.index < d.end)) continue;
    const closing = m[1] ? `\\end{${m[1]}${m[2] ?? ''}}` : m[0] === '\\[' ? '\\]' : '$$';
    const close = src.indexOf(closing, m.index + m[0].length);
    if (close < 0) continue;
    displays.push({ start: m.index, end: close + closing.length, heading: m[1] ? `${m[1]}${m[2] ?? ''}` : m[0] });
  }
  if (displays.length === 0) return sections;
  const out: PaperSection[] = [];
  for (const s of sections) {
    let at = s.start;
    for (const d of displays) {
      if (d.start < s.start || d.end > s.end || s.kind === 'references') continue;
      if (d.start > at) out.push({ ...s, start: at, end: d.start, line: lineAt(tex, at) });
      out.push({ kind: 'equations', heading: d.heading, start: d.start, end: d.end, line: lineAt(tex, d.start) });
      at = d.end;
    }
    if (s.end > at) out.push({ ...s, start: at, end: s.end, line: lineAt(tex, at) });
  }
  return out;
}

/** The section an offset stands in (the last that starts at or before it). */
export function sectionAt(sections: readonly PaperSection[], offset: number): PaperSection | null {
  let lo = 0;
  let hi = sections.length - 1;
  let found: PaperSection | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = sections[mid] as PaperSection;
    if (s.start <= offset) {
      found = s;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found && offset < found.end ? found : null;
}
