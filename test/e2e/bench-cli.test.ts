import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARXIV_PDF, type ArxivServer, startArxivServer } from '../support/arxiv-server.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

let dir: string;
let registry: string;
let arxiv: ArxivServer;
beforeEach(() => {
  dir = tempDir('svc-bench-cli-');
  mkdirSync(join(dir, 'workspace', 'checkpoints'), { recursive: true });
  registry = join(dir, 'workspace', 'paper_registry');
  writeFileSync(join(dir, 'paper.pdf'), PDF);
  writeFileSync(join(dir, 'notes.pdf'), 'not a pdf');
  arxiv = startArxivServer();
});
afterEach(() => {
  arxiv.stop();
  removeDir(dir);
});

const bench = (args: string[], env: Record<string, string> = {}) => svc(['bench', ...args], { cwd: dir, env: { SVC_ARXIV_API_BASE: arxiv.url, ...env } });

describe('svc bench', () => {
  test('import, list, license, delete; --json and one line per paper', async () => {
    const local = await bench(['import', '--source-type', 'local', '--source', 'paper.pdf', '--title', 'Local paper', '--license', 'MIT', '--authors', 'Lovelace, Ada; Turing, Alan', '--year', '2024', '--json']);
    expect(local.code).toBe(0);
    const entry = JSON.parse(local.stdout);
    expect(entry).toMatchObject({ paper_id: 'paper', source: join(dir, 'paper.pdf'), license: 'mit', authors: ['Lovelace, Ada', 'Turing, Alan'], year: 2024, registry_dir: join(registry, 'papers', 'paper') });
    expect(readFileSync(join(registry, 'papers', 'paper', 'paper.pdf'))).toEqual(PDF);

    const doi = await bench(['import', '--source-type', 'doi', '--source', '10.1145/1.2', '--title', 'DOI paper', '--license', 'cc by-nc']);
    expect(doi.code).toBe(0);
    expect(doi.stdout).toBe('imported 10.1145_1.2  -  cc by-nc (review)  DOI paper\nlicense: cc by-nc is non-commercial: not usable, since a benchmark may not allow every use of the paper\n');

    const arxivImport = await bench(['import', '--source-type', 'arxiv', '--source', '2404.14193', '--title', 'Attention', '--license', 'arXiv non-exclusive', '--json']);
    expect(arxivImport.code).toBe(0);
    expect(readFileSync(join(registry, 'papers', '2404.14193', 'paper.pdf'))).toEqual(ARXIV_PDF);

    const list = await bench(['list']);
    expect(list.stdout.trim().split('\n')).toEqual(['paper  2024  mit (usable)  pdf  Local paper', '10.1145_1.2  -  cc by-nc (review)  no-pdf  DOI paper', '2404.14193  -  arxiv non-exclusive (usable)  pdf  Attention']);
    const listJson = JSON.parse((await bench(['list', '--json'])).stdout);
    expect(listJson.papers.map((p: { paper_id: string }) => p.paper_id)).toEqual(['paper', '10.1145_1.2', '2404.14193']);

    expect(JSON.parse((await bench(['license', 'paper', '--json'])).stdout)).toEqual(entry.license_assessment);
    expect((await bench(['license', 'paper'])).stdout).toBe('paper: mit is permissive: usable\n');

    expect((await bench(['delete', 'paper'])).stdout).toBe('deleted paper\n');
    expect(JSON.parse((await bench(['delete', 'paper', '--json'])).stdout)).toEqual({ deleted: false, paper_id: 'paper' });
    expect(existsSync(join(registry, 'papers', 'paper'))).toBe(false);
  });

  test('refusals: one line, the exit code, nothing written', async () => {
    const cases: [string[], number, RegExp][] = [
      [['import', '--source-type', 'ftp', '--source', 'x', '--title', 't'], 2, /--source-type must be one of/],
      [['import', '--source-type', 'local', '--source', 'x', '--title', 't', '--pdf', 'notes.pdf'], 2, /is not a PDF/],
      [['import', '--source-type', 'local', '--source', 'x', '--title', 't', '--pdf', 'missing.pdf'], 2, /does not exist/],
      [['import', '--source-type', 'doi', '--source', 'x', '--title', 't', '--year', 'soon'], 2, /--year must be a year/],
      [['license', 'nope'], 2, /no paper nope/],
      [['license', '../x'], 2, /is not a paper id/],
      [['arxiv', 'not-an-id'], 2, /is not an arXiv id/],
    ];
    for (const [args, code, error] of cases) {
      const r = await bench(args);
      expect({ args, code: r.code }).toEqual({ args, code });
      expect(r.stderr).toMatch(error);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(existsSync(registry)).toBe(false);
    await bench(['import', '--source-type', 'doi', '--source', 'd', '--title', 't']);
    const dup = await bench(['import', '--source-type', 'doi', '--source', 'd', '--title', 't2']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('paper d is already in the registry');
    expect((await bench(['import', '--source-type', 'doi', '--source', 'd', '--title', 't2', '--overwrite', '--json'])).code).toBe(0);
  });

  test('--registry names another registry', async () => {
    const other = join(dir, 'other');
    expect((await bench(['import', '--source-type', 'doi', '--source', 'd', '--title', 't', '--registry', other])).code).toBe(0);
    expect(existsSync(join(other, 'manifest.jsonl'))).toBe(true);
    expect(JSON.parse((await bench(['list', '--json', '--registry', other])).stdout).papers).toHaveLength(1);
    expect((await bench(['list'])).stdout).toBe(`no papers in ${registry}\n`);
  });

  test('arxiv: metadata as JSON and as lines; unknown and arXiv down', async () => {
    const json = await bench(['arxiv', 'arXiv:2404.14193v1', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ arxiv_id: '2404.14193v1', year: 2024, authors: ['Ada Lovelace', 'Alan Turing'] });
    const lines = await bench(['arxiv', '2404.14193']);
    expect(lines.stdout.split('\n')[0]).toBe('2404.14193  2024  A Paper About Attention & Its <Limits>');
    expect(lines.stdout).toContain('pdf: https://arxiv.org/pdf/2404.14193v1.pdf');
    const unknown = await bench(['arxiv', '2404.99999']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('arXiv does not know 2404.99999');
    const down = await bench(['arxiv', '2404.14193'], { SVC_ARXIV_API_BASE: 'http://127.0.0.1:9' });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('arXiv at http://127.0.0.1:9/api/query?id_list=2404.14193 is not reachable');
  });
});
