import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { fetchPreprintMetadata } from '../../../src/bench/arxiv.ts';
import { fetchArxivPdf } from '../../../src/bench/arxiv-pdf.ts';
import { normalizeArxivId } from '../../../src/bench/arxiv-id.ts';
import { InputError, NotFoundError, UnavailableError, UpstreamAnswerError } from '../../../src/core/errors.ts';
import { ATTENTION_PAPER, type ArxivServer, startArxivServer } from '../../support/arxiv-server.ts';

let arxiv: ArxivServer;
let env: Record<string, string>;
beforeEach(() => {
  arxiv = startArxivServer([
    ATTENTION_PAPER,
    { id: '2501.01234', title: 'Five digits', summary: 's', published: '2025-01-02T00:00:00Z', authors: ['One', 'Two'] },
    { id: 'hep-th/9901001', title: 'Old style', summary: 's', published: '1999-01-04T00:00:00Z', authors: ['P. Physicist', 'Q. Physicist'] },
    { id: 'math.GT/0309136', title: 'Old style with a subject class', summary: 's', published: '2003-09-08T00:00:00Z', authors: ['T. Topologist', 'U. Topologist'] },
  ]);
  env = { SVC_ARXIV_API_BASE: arxiv.url };
});
afterEach(() => arxiv.stop());

describe('normalizeArxivId', () => {
  test.each([
    ['2404.14193', '2404.14193'],
    ['2404.14193v2', '2404.14193v2'],
    ['2501.01234', '2501.01234'],
    ['arXiv:2404.14193v1', '2404.14193v1'],
    ['  ARXIV:2404.14193 ', '2404.14193'],
    ['hep-th/9901001', 'hep-th/9901001'],
    ['hep-th/9901001v3', 'hep-th/9901001v3'],
    ['math.GT/0309136', 'math.GT/0309136'],
    ['arXiv:math.GT/0309136', 'math.GT/0309136'],
  ])('%s → %s', (raw, id) => expect(normalizeArxivId(raw)).toBe(id));

  test.each(['', '2404', '2404.123', '2404.123456', '24041.4193', '2404.14193v', '2404.14193 v2', 'hep-th/990100', 'HEP-TH/9901001', '../etc/passwd', '2404.14193&id_list=1', 'https://arxiv.org/abs/2404.14193'])('%p is refused', (raw) => {
    expect(() => normalizeArxivId(raw)).toThrow(InputError);
  });
});

describe('fetchPreprintMetadata', () => {
  test('a new-style id: title (entities decoded, spaces collapsed), authors, year, license, links', async () => {
    expect(await fetchPreprintMetadata('2404.14193', env)).toEqual({
      arxiv_id: '2404.14193',
      title: 'A Paper About Attention & Its <Limits>',
      authors: ['Ada Lovelace', 'Alan Turing'],
      year: 2024,
      license: 'arXiv non-exclusive',
      license_assessment: { license: 'arxiv non-exclusive', permissive: true, modifiable: false, redistributable: true, non_commercial: false, usable: true, note: expect.any(String) },
      pdf_url: 'https://arxiv.org/pdf/2404.14193v1.pdf',
      abs_url: 'http://arxiv.org/abs/2404.14193v1',
    });
    expect(arxiv.requests).toEqual(['/api/query?id_list=2404.14193']);
  });

  test('a version suffix and the arXiv: prefix; a five-digit number', async () => {
    const v2 = await fetchPreprintMetadata('arXiv:2404.14193v2', env);
    expect(v2).toMatchObject({ arxiv_id: '2404.14193v2', pdf_url: 'https://arxiv.org/pdf/2404.14193v2.pdf' });
    expect((await fetchPreprintMetadata('2501.01234', env)).year).toBe(2025);
    expect(arxiv.requests).toEqual(['/api/query?id_list=2404.14193v2', '/api/query?id_list=2501.01234']);
  });

  test('old-style ids, with and without a subject class', async () => {
    expect(await fetchPreprintMetadata('hep-th/9901001', env)).toMatchObject({ arxiv_id: 'hep-th/9901001', title: 'Old style', year: 1999, authors: ['P. Physicist', 'Q. Physicist'] });
    expect(await fetchPreprintMetadata('math.GT/0309136v1', env)).toMatchObject({ arxiv_id: 'math.GT/0309136v1', year: 2003 });
    expect(arxiv.requests).toEqual(['/api/query?id_list=hep-th%2F9901001', '/api/query?id_list=math.GT%2F0309136v1']);
  });

  test('an invalid id is refused before any request', async () => {
    await expect(fetchPreprintMetadata('not-an-id', env)).rejects.toBeInstanceOf(InputError);
    expect(arxiv.requests).toEqual([]);
  });

  test('an id arXiv does not know is not found', async () => {
    const err = await fetchPreprintMetadata('2404.99999', env).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe('arXiv does not know 2404.99999');
  });

  test('arXiv unreachable, failing, or answering no feed: an error naming the URL', async () => {
    const down = await fetchPreprintMetadata('2404.14193', { SVC_ARXIV_API_BASE: 'http://127.0.0.1:9' }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(UnavailableError);
    expect((down as Error).message).toStartWith('arXiv at http://127.0.0.1:9/api/query?id_list=2404.14193 is not reachable');
    arxiv.failWith(500);
    const failing = await fetchPreprintMetadata('2404.14193', env).catch((e: unknown) => e);
    expect(failing).toBeInstanceOf(UpstreamAnswerError);
    expect((failing as Error).message).toStartWith(`arXiv at ${arxiv.url}/api/query?id_list=2404.14193 failed`);
    expect((failing as Error).message).toContain('500');
    arxiv.failWith(null);
    const html = startHtmlServer();
    try {
      await expect(fetchPreprintMetadata('2404.14193', { SVC_ARXIV_API_BASE: html.url })).rejects.toThrow(/answered something that is not an Atom feed/);
    } finally {
      html.stop();
    }
  });
});

describe('fetchArxivPdf', () => {
  test('an answer larger than any paper (over 200 MB) is arXiv failing, a bad gateway naming the URL, not the caller\'s request too large', async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x25);
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => {
        let sent = 0;
        const body = new ReadableStream({ pull: (c) => (sent++ < 201 ? c.enqueue(chunk) : c.close()) });
        return new Response(body, { headers: { 'content-type': 'application/pdf' } });
      },
    });
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const err = await fetchArxivPdf('2404.14193', { SVC_ARXIV_API_BASE: url }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnavailableError);
      expect((err as Error).message).toBe(`arXiv at ${url}/pdf/2404.14193 sent more than 200 MB, which no paper's PDF is`);
    } finally {
      server.stop(true);
    }
  });
});

function startHtmlServer() {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('<html>maintenance</html>', { headers: { 'content-type': 'text/html' } }) });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => void server.stop(true) };
}
