import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAIM_PREAMBLE } from '../../../src/paper/claims.ts';
import { compilePaper } from '../../../src/paper/compile.ts';
import { findVenue, listVenues, referencesPage, renderPaper, SLOTS, SVC_PREAMBLE, venueTemplate } from '../../../src/paper/venues.ts';
import { lacks } from '../../support/components.ts';
import { pdfText, writePaper } from '../../support/paper.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const root = tempDir();
afterAll(() => removeDir(root));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root };

describe('venues', () => {
  test('the six venues of the catalogue with their page limits and real classes', () => {
    expect(listVenues().map((v) => [v.id, v.pageLimit, v.documentClass])).toEqual([
      ['neurips', 9, 'article'],
      ['icpp', 10, 'acmart'],
      ['sc', 12, 'IEEEtran'],
      ['isc', 12, 'llncs'],
      ['arxiv', null, 'article'],
      ['acm', 10, 'acmart'],
    ]);
  });

  test('an unknown venue: one line listing the known ones; case and spaces do not matter', () => {
    expect(() => findVenue('iclr')).toThrow("unknown venue 'iclr' (known: neurips, icpp, sc, isc, arxiv, acm)");
    expect(findVenue(' NeurIPS ').id).toBe('neurips');
  });

  test('every template: its class, the svc preamble (claim anchor, references marker) and every slot', () => {
    for (const v of listVenues()) {
      const t = venueTemplate(v);
      expect(t.startsWith(`\\documentclass`)).toBe(true);
      expect(t).toContain(`{${v.documentClass}}`);
      expect(t).toContain(SVC_PREAMBLE);
      expect(t).toContain(CLAIM_PREAMBLE);
      expect(t).toContain(`\\bibliographystyle{${v.bibliographyStyle}}`);
      for (const slot of SLOTS) expect(t).toContain(`<<${slot}>>`);
      // the marker comes right before the bibliography, after the body
      expect(t.indexOf('<<body>>')).toBeLessThan(t.indexOf('\\svcreferences\n\\bibliographystyle'));
    }
  });

  test('renderPaper fills every slot once; text put in is not read for slots or replacement patterns', () => {
    const tex = renderPaper(findVenue('sc'), { title: 'T $& <<body>>', authors: ['A_B', 'C'], abstract: 'Abs.', body: 'Body.', bibliography: 'library.bib' });
    // the only slot marker left is the one the title carries
    expect(tex.match(/<<\w+>>/g)).toEqual(['<<body>>']);
    expect(tex).toContain('\\title{T $& <<body>>}');
    expect(tex.split('Body.').length).toBe(2);
    expect(tex).toContain('\\author{\\IEEEauthorblockN{A\\_B} \\and \\IEEEauthorblockN{C}}');
    expect(tex).toContain('\\bibliography{library}');
    expect(() => renderPaper(findVenue('sc'), { title: 'T', authors: [], abstract: '', body: '', bibliography: 'my refs' })).toThrow("bibliography 'my refs' is not a BibTeX database name");
  });

  test('a paper that cites nothing has no reference list in any venue (no empty References heading), and keeps the references-page marker', () => {
    for (const v of listVenues()) {
      const tex = renderPaper(findVenue(v.id), { title: 'T', authors: ['A'], abstract: 'Abs.', body: 'Body.', bibliography: null });
      expect([v.id, /\\bibliography(?:style)?\{/.test(tex)]).toEqual([v.id, false]);
      expect(tex).toContain('\\svcreferences');
    }
  });

  test('referencesPage reads the marker the preamble writes to the .aux', () => {
    expect(referencesPage('\\relax\n\\@gobble{svc-references-page=7}\n')).toBe(7);
    expect(referencesPage('\\relax\n')).toBeNull();
  });
});

describe.skipIf(lacks('venues') || lacks('pdftools'))("each venue's template compiles", () => {
  test.each(listVenues().map((v) => v.id))('%s: a PDF with the title, the citation resolved, scalable fonts', async (id) => {
    const dir = join(root, id);
    writePaper(dir, id, { title: `Sorting with Fewer Comparisons for ${id.toUpperCase()}` });
    const built = await compilePaper(dir, 'main.tex', env);
    expect(built.pdf_path).toBe(join(dir, 'main.pdf'));
    expect(built.pages).toBeGreaterThanOrEqual(1);
    expect(pdfText(built.pdf_path).replace(/\s+/g, ' ')).toContain(`Sorting with Fewer Comparisons for ${id.toUpperCase()}`);
    expect(pdfText(built.pdf_path)).toContain('30,850');
    expect(built.warnings.filter((w) => w.kind !== 'other')).toEqual([]);
    expect(referencesPage(readFileSync(join(dir, 'main.aux'), 'utf8'))).toBe(1);
    // every font scalable: no bitmap (Type 3) font, which publishers' PDF checks refuse
    const fonts = Bun.spawnSync(['pdffonts', built.pdf_path], { stdout: 'pipe' }).stdout.toString();
    expect(fonts).toContain('Type 1');
    expect(fonts).not.toContain('Type 3');
  });
});
