import { afterAll, describe, expect, test } from 'bun:test';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkLibrary, parseLibrary, searchLibrary } from '../../../src/ideas/library.ts';
import type { PaperRecord } from '../../../src/ideas/papers.ts';
import { ProviderFailure } from '../../../src/ideas/provider-fetch.ts';
import { libraryEntry } from '../../../src/references/bibtex.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const DEMO = join(import.meta.dir, '../../../examples/demo/library.bib');
const dir = tempDir('svc-library-');
afterAll(() => removeDir(dir));

/** What a reference manager exports: macros, concatenation, accents, braces, fields no style prints. */
const EXPORT = String.raw`
@string{cacm = "Communications of the {ACM}"}
@comment{exported by a reference manager}
@article{Vit:2000,
  author = {Jiang, Tao and Vit{\'a}nyi, Paul and G{\"o}del, Kurt and {\O}stergaard, Ann},
  title = {A Lower Bound on the {Average-Case} Complexity of \emph{Shellsort}},
  journal = cacm # " (extended)",
  month = dec,
  year = 2000,
  doi = {10.1145/355483.355488},
  url = {https://example.org/a b},
  abstract = {We prove 50\% of \textbf{lower bounds} for sorting.},
  file = {:/home/me/papers/vit.pdf:PDF},
}
@online{web-page,
  title = {Sorting Blog Post on Gap Sequences},
  url = {https://example.org/gaps},
  year = {2021},
}
@misc{no title here, year = 1999}
`;

describe('parseLibrary', () => {
  test("macros, concatenation and month names resolved; TeX read as text for searching, kept as TeX for citing", () => {
    const [vit, web] = parseLibrary(EXPORT, 'lib.bib').map((e) => e.record);
    expect(vit).toMatchObject({
      title: 'A Lower Bound on the Average-Case Complexity of Shellsort',
      authors: ['Jiang, Tao', 'Vitányi, Paul', 'Gödel, Kurt', 'Østergaard, Ann'],
      venue: 'Communications of the ACM (extended)',
      year: 2000,
      doi: '10.1145/355483.355488',
      abstract: 'We prove 50% of lower bounds for sorting.',
    });
    expect(vit?.library?.key).toBe('Vit:2000');
    expect(vit?.library?.fields).toContainEqual(['journal', 'Communications of the {ACM} (extended)']);
    expect(vit?.library?.fields).toContainEqual(['month', 'December']);
    expect(vit?.library?.fields).toContainEqual(['title', 'A Lower Bound on the {Average-Case} Complexity of \\emph{Shellsort}']);
    // only what a citation prints travels: no abstract, no manager's file path
    expect(vit?.library?.fields.map(([name]) => name)).toEqual(['author', 'title', 'journal', 'month', 'year', 'doi', 'url']);
    expect(web?.library).toMatchObject({ key: 'web-page', type: 'online' });
  });

  test('an entry without a title is left out: nothing could cite it', () => {
    expect(parseLibrary(EXPORT, 'lib.bib').map((e) => e.record.title)).toHaveLength(2);
  });

  test('a syntax error names the file, line and column', () => {
    let err: unknown;
    try {
      parseLibrary('@article{a, title={A}}\n\n@article{b, title={unclosed}\n@misc{c, title={C}}\n', 'refs/lib.bib');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProviderFailure);
    expect((err as Error).message).toMatch(/^the library refs\/lib\.bib:3:1 is not valid BibTeX: the entry starting there is malformed or not closed /);
  });
});

describe('searchLibrary', () => {
  test("the demo's library: two of the query's words in the title or keywords match, the title and keywords first", () => {
    const keys = (q: string) => searchLibrary(DEMO, q, 10).map((p) => p.library?.key);
    expect(keys('geometric ratio increments')).toEqual(['ciura2001']);
    expect(keys('shell sort gap sequence')).toHaveLength(8);
    expect(keys('Fewer comparisons when sorting')).toContain('ciura2001');
    expect(keys('quantum chemistry')).toEqual([]);
    expect(searchLibrary(DEMO, 'shell sort gap sequence', 3)).toHaveLength(3);
  });

  test('a one-word query needs its one word; plurals and -ing forms meet', () => {
    const file = join(dir, 'one.bib');
    writeFileSync(file, '@article{a, title={Sorting networks}, year=1968}\n@article{b, title={Graph colouring}, year=1970}\n');
    expect(searchLibrary(file, 'sorts', 5).map((p) => p.library?.key)).toEqual(['a']);
    expect(searchLibrary(file, 'network', 5).map((p) => p.library?.key)).toEqual(['a']);
  });

  test('the file is read again when it changes', () => {
    const file = join(dir, 'changing.bib');
    writeFileSync(file, '@article{old, title={Tiling loops}, year=2000}\n');
    expect(searchLibrary(file, 'tiling', 5).map((p) => p.library?.key)).toEqual(['old']);
    writeFileSync(file, '@article{new, title={Tiling caches and loops}, year=2001}\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(searchLibrary(file, 'tiling', 5).map((p) => p.library?.key)).toEqual(['new']);
  });

  test('a missing or broken library is a provider failure, and checkLibrary makes it the run\'s one-line error with the fix', () => {
    expect(() => searchLibrary(join(dir, 'missing.bib'), 'sorting', 5)).toThrow(ProviderFailure);
    expect(() => checkLibrary(join(dir, 'missing.bib'))).toThrow(/^retrieval\.library: cannot read the library .*missing\.bib: .*ENOENT/);
    const broken = join(dir, 'broken.bib');
    writeFileSync(broken, '@article{a, title={A}\n');
    expect(() => checkLibrary(broken)).toThrow(/^retrieval\.library: the library .*broken\.bib:1:1 is not valid BibTeX/);
    expect(() => checkLibrary(dir)).toThrow(/is not a file/);
    expect(checkLibrary(DEMO)).toBe(8);
  });
});

describe('crossref', () => {
  test('an entry takes the fields it lacks from the entry it crossrefs, whose title is its booktitle', () => {
    const [paper] = parseLibrary('@inproceedings{p, author={A, B}, title={Gaps}, crossref={Proc}}\n@proceedings{proc, title={Proceedings of Sorting}, year=1999, publisher={Pub}}\n', 'x.bib').map((e) => e.record);
    expect(paper).toMatchObject({ title: 'Gaps', venue: 'Proceedings of Sorting', year: 1999 });
    expect(paper?.library?.fields).toEqual([['author', 'A, B'], ['title', 'Gaps'], ['booktitle', 'Proceedings of Sorting'], ['year', '1999'], ['publisher', 'Pub']]);
  });
});

describe('libraryEntry', () => {
  test.each([
    ['a command that writes a file', 'x \\immediate\\openout5=pwned.tex\\immediate\\write5{hello}'],
    ['an input', '\\input{notes}'],
    ['a csname', '\\csname foo\\endcsname'],
    ['a ^^ escape', '^^5cinput'],
    ['a closing brace too many', 'Sorting } things'],
    ['a bare &', 'Sorting & Searching'],
    ['a bare %', 'fifty % off'],
    ['an open math', 'the $O(n'],
    ['a line break', 'one \\\\ two'],
  ])("%s: no entry, so the paper is cited from its plain text", (_what, title) => {
    expect(libraryEntry({ key: 'k', type: 'article', fields: [['author', 'A, B'], ['title', title]] })).toBeNull();
  });

  test('what bibliographies hold passes: accents, escaped specials, styles, math, dashes', () => {
    const title = String.raw`{\"O}ber {S}hell's \emph{sort}: $O(n^{3/2})$ \& $\alpha$--$\beta$ at 50\% \ldots`;
    expect(libraryEntry({ key: 'k', type: 'article', fields: [['author', 'A, B'], ['title', title]] })?.entry).toContain(`title = {${title}}`);
  });

  test("its own key and type, the printed fields as TeX, non-ASCII as commands; unsafe DOI or URL, abstract and file left out; an unknown type as @misc", () => {
    const [vit, web] = parseLibrary(EXPORT, 'lib.bib').map((e) => e.record);
    const e = libraryEntry(vit?.library as NonNullable<PaperRecord['library']>);
    expect(e?.entry).toBe(
      '@article{Vit:2000,\n' +
        "  author = {Jiang, Tao and Vit{\\'a}nyi, Paul and G{\\\"o}del, Kurt and {\\O}stergaard, Ann},\n" +
        '  title = {A Lower Bound on the {Average-Case} Complexity of \\emph{Shellsort}},\n' +
        '  journal = {Communications of the {ACM} (extended)},\n' +
        '  month = {December},\n' +
        '  year = {2000},\n' +
        '  doi = {10.1145/355483.355488}\n' +
        '}\n',
    );
    expect(libraryEntry(web?.library as NonNullable<PaperRecord['library']>)?.entry).toBe('@misc{web-page,\n  key = {web-page},\n  title = {Sorting Blog Post on Gap Sequences},\n  url = {https://example.org/gaps},\n  year = {2021}\n}\n');
    expect(libraryEntry({ key: 'u', type: 'book', fields: [['author', 'Ærø Straße'], ['title', '深層 Sorting']] })).toEqual({ entry: '@book{u,\n  author = {{\\AE}r{\\o} Stra{\\ss}e},\n  title = { Sorting}\n}\n', dropped: 2 });
  });
});
