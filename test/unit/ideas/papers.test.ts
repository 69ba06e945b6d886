import { describe, expect, test } from 'bun:test';
import { atomEntries, xmlText } from '../../../src/ideas/atom.ts';
import { mergePapers, normalizeTitle } from '../../../src/ideas/papers.ts';
import { arxivQuery } from '../../../src/ideas/scholar-b.ts';

describe('normalizeTitle', () => {
  test('case, accents, punctuation and spacing do not matter', () => {
    expect(normalizeTitle('  Café-Style  Attention: A Study! ')).toBe('cafe style attention a study');
    expect(normalizeTitle('CAFE STYLE ATTENTION — a study')).toBe('cafe style attention a study');
  });
});

describe('mergePapers', () => {
  const p = (title: string, abstract = '') => ({ title, abstract, url: `u:${title}` });
  test('takes the lists in turn, keeps the first of a title, caps at max', () => {
    expect(mergePapers([[p('A'), p('B'), p('C')], [p('x'), p('b.')]], 10).map((q) => q.title)).toEqual(['A', 'x', 'B', 'C']);
    expect(mergePapers([[p('A'), p('B')], [p('X')]], 2).map((q) => q.title)).toEqual(['A', 'X']);
  });
  test('drops untitled entries and leaves the inputs unchanged', () => {
    const first = [p('A')];
    const merged = mergePapers([first, [p('a', 'has one'), p('!!')]], 10);
    expect(merged).toEqual([{ title: 'A', abstract: 'has one', url: 'u:A' }]);
    expect(first[0]?.abstract).toBe('');
  });
  test('no lists, or empty ones, give nothing', () => {
    expect(mergePapers([], 5)).toEqual([]);
    expect(mergePapers([[], []], 5)).toEqual([]);
  });
});

describe('atom', () => {
  test('entries with entities, CDATA kept literal, self-closing links and nested authors', () => {
    const feed = `<feed><title>q</title><entry><id>http://arxiv.org/abs/1</id><title>A &amp; B &lt;x&gt; &#233;&#x41;</title><summary><![CDATA[raw <b>&</b>]]></summary><link href="h" rel="alternate"/><author><name>N</name></author></entry><entry><title>
  Two
  lines</title></entry></feed>`;
    expect(atomEntries(feed)).toEqual([
      { id: 'http://arxiv.org/abs/1', title: 'A & B <x> éA', summary: 'raw <b>&</b>', link: '', author: 'N' },
      { title: 'Two lines' },
    ]);
  });
  test('unknown entities stay as written', () => {
    expect(xmlText('a &nbsp; b')).toBe('a &nbsp; b');
  });
});

describe('arxivQuery', () => {
  test('the topic words of three letters or more, each in all fields, any of them', () => {
    expect(arxivQuery('Cache-aware tiling for GEMM on the GPU (AND more)')).toBe('all:cache-aware OR all:tiling OR all:gemm OR all:gpu OR all:more');
    expect(arxivQuery('ML')).toBe('all:ml');
  });
});
