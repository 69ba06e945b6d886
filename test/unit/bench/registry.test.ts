import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DuplicatePaperError, PaperRegistry, paperRegistryDir } from '../../../src/bench/registry.ts';
import { InputError, NotFoundError, UnavailableError } from '../../../src/core/errors.ts';
import type { ImportBody } from '../../../src/schema/bench-api.ts';
import { ARXIV_PDF, type ArxivServer, startArxivServer } from '../../support/arxiv-server.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const AD_PDF = Buffer.from('%PDF-1.5\n% artifact description\n%%EOF\n');

let dir: string;
let regDir: string;
let reg: PaperRegistry;
let paperPdf: string;
let adPdf: string;
let arxiv: ArxivServer | undefined;
let env: Record<string, string>;

beforeEach(() => {
  dir = tempDir();
  regDir = join(dir, 'workspace', 'paper_registry');
  reg = PaperRegistry.open(regDir);
  paperPdf = join(dir, 'paper.pdf');
  adPdf = join(dir, 'ad.pdf');
  writeFileSync(paperPdf, PDF);
  writeFileSync(adPdf, AD_PDF);
  // nothing reaches a real arXiv: a port that refuses unless a test starts the local server
  env = { SVC_ARXIV_API_BASE: 'http://127.0.0.1:9' };
});
afterEach(() => {
  arxiv?.stop();
  arxiv = undefined;
  removeDir(dir);
});

const body = (over: Partial<ImportBody> = {}): ImportBody => ({ source_type: 'local', source: 'paper-a', title: 'Paper A', license: 'CC BY 4.0', pdf_path: paperPdf, ...over });
const manifestText = () => readFileSync(join(regDir, 'manifest.jsonl'), 'utf8');
const manifestLines = () => manifestText().split('\n').filter(Boolean);

test('paperRegistryDir: <workspace>/paper_registry, or SVC_PAPER_REGISTRY_DIR (relative to the workspace)', () => {
  expect(paperRegistryDir({}, '/w/space')).toBe('/w/space/paper_registry');
  expect(paperRegistryDir({ SVC_PAPER_REGISTRY_DIR: '' }, '/w/space')).toBe('/w/space/paper_registry');
  expect(paperRegistryDir({ SVC_PAPER_REGISTRY_DIR: '/data/reg' }, '/w/space')).toBe('/data/reg');
  expect(paperRegistryDir({ SVC_PAPER_REGISTRY_DIR: 'reg' }, '/w/space')).toBe('/w/space/reg');
});

test('open creates nothing; an empty registry lists no paper', () => {
  expect(reg.list()).toEqual([]);
  expect(reg.get('x')).toBeNull();
  expect(existsSync(regDir)).toBe(false);
});

describe('import', () => {
  test('a local paper with its PDF and appendix: the entry, one sorted line, the files copied', async () => {
    const entry = await reg.import(body({ ad_pdf_path: adPdf, authors: ['A. Author'], venue: 'SC', year: 2024, artifact_url: 'https://example.org/a' }), env);
    expect(entry).toEqual({
      paper_id: 'paper-a',
      title: 'Paper A',
      authors: ['A. Author'],
      venue: 'SC',
      year: 2024,
      source_type: 'local',
      source: 'paper-a',
      artifact_url: 'https://example.org/a',
      license: 'cc by 4.0',
      license_assessment: expect.objectContaining({ license: 'cc by 4.0', usable: true }),
      imported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      registry_dir: join(regDir, 'papers', 'paper-a'),
    });
    const lines = manifestLines();
    expect(lines).toHaveLength(1);
    const keys = Object.keys(JSON.parse(lines[0] as string));
    expect(keys).toEqual([...keys].sort());
    expect(Object.keys(JSON.parse(lines[0] as string).license_assessment)).toEqual(['license', 'modifiable', 'non_commercial', 'note', 'permissive', 'redistributable', 'usable']);
    expect(readFileSync(join(regDir, 'papers', 'paper-a', 'paper.pdf'))).toEqual(PDF);
    expect(readFileSync(join(regDir, 'papers', 'paper-a', 'ad.pdf'))).toEqual(AD_PDF);
    expect(existsSync(join(regDir, 'papers', 'paper-a', 'ae.pdf'))).toBe(false);
    expect(reg.paperPdf('paper-a')).toBe(join(regDir, 'papers', 'paper-a', 'paper.pdf'));
    expect(reg.list()).toEqual([entry]);
    expect(reg.get('paper-a')).toEqual(entry);
    // no staging left behind
    expect(readdirSync(regDir).sort()).toEqual(['.manifest.lock', 'manifest.jsonl', 'papers']);
  });

  test('local: the source may itself be the PDF; the default id is then its file name', async () => {
    const entry = await reg.import({ source_type: 'local', source: paperPdf, title: 'From its path' }, env);
    expect(entry.paper_id).toBe('paper');
    expect(entry.source).toBe(paperPdf);
    expect(entry.license).toBe('unknown');
    expect(entry.license_assessment).toMatchObject({ usable: false, note: 'license unknown — manual review required' });
    expect(readFileSync(reg.paperPdf(entry.paper_id) as string)).toEqual(PDF);
  });

  test('doi: metadata only; the paper is registered, and has no PDF for runs', async () => {
    const entry = await reg.import({ source_type: 'doi', source: '10.1145/3368089.3409740', title: 'A DOI paper', license: 'MIT' }, env);
    expect(entry.paper_id).toBe('10.1145_3368089.3409740');
    expect(reg.paperPdf(entry.paper_id)).toBeNull();
    expect(existsSync(entry.registry_dir)).toBe(true);
  });

  test('upload: a name in the active checkpoint uploads/, or an absolute path; none without a checkpoint', async () => {
    const uploads = join(dir, 'ckpt', 'uploads');
    mkdirSync(uploads, { recursive: true });
    writeFileSync(join(uploads, 'up.pdf'), PDF);
    const a = await reg.import({ source_type: 'upload', source: 'uploads/up.pdf', title: 'Uploaded', paper_id: 'up1' }, env, { uploadsDir: uploads });
    const b = await reg.import({ source_type: 'upload', source: 'up.pdf', title: 'Uploaded', paper_id: 'up2' }, env, { uploadsDir: uploads });
    expect((await reg.import({ source_type: 'upload', source: 'uploads/My Paper.PDF', title: 'Default id', pdf_path: paperPdf }, env)).paper_id).toBe('My_Paper');
    reg.delete('My_Paper');
    const c = await reg.import({ source_type: 'upload', source: join(uploads, 'up.pdf'), title: 'Uploaded', paper_id: 'up3' }, env);
    for (const e of [a, b, c]) expect(readFileSync(reg.paperPdf(e.paper_id) as string)).toEqual(PDF);
    await expect(reg.import({ source_type: 'upload', source: 'up.pdf', title: 'x', paper_id: 'up4' }, env)).rejects.toThrow(/no active checkpoint/);
    await expect(reg.import({ source_type: 'upload', source: '../../paper.pdf', title: 'x', paper_id: 'up5' }, env, { uploadsDir: uploads })).rejects.toBeInstanceOf(InputError);
    await expect(reg.import({ source_type: 'upload', source: 'gone.pdf', title: 'x', paper_id: 'up6' }, env, { uploadsDir: uploads })).rejects.toBeInstanceOf(NotFoundError);
    expect(reg.list().map((e) => e.paper_id)).toEqual(['up1', 'up2', 'up3']);
  });

  test('arxiv: without pdf_path the PDF is fetched from the arXiv base; with it, nothing is fetched', async () => {
    arxiv = startArxivServer();
    env.SVC_ARXIV_API_BASE = arxiv.url;
    const fetched = await reg.import({ source_type: 'arxiv', source: 'arXiv:2404.14193v1', title: 'Fetched', license: 'arXiv non-exclusive' }, env);
    expect(fetched.paper_id).toBe('arXiv_2404.14193v1');
    expect(fetched.license_assessment).toMatchObject({ license: 'arxiv non-exclusive', usable: true, modifiable: false });
    expect(readFileSync(reg.paperPdf(fetched.paper_id) as string)).toEqual(ARXIV_PDF);
    expect(arxiv.requests).toEqual(['/pdf/2404.14193v1']);
    await reg.import({ source_type: 'arxiv', source: '2404.14193', title: 'Given', paper_id: 'given', pdf_path: paperPdf }, env);
    expect(arxiv.requests).toHaveLength(1);
  });

  test('arxiv: a PDF arXiv does not have, or arXiv down, refuses the import and writes nothing', async () => {
    arxiv = startArxivServer();
    await expect(reg.import({ source_type: 'arxiv', source: '2404.14193', title: 'Down' }, env)).rejects.toThrow(/arXiv at http:\/\/127\.0\.0\.1:9\/pdf\/2404\.14193 is not reachable/);
    await expect(reg.import({ source_type: 'arxiv', source: '2404.14193', title: 'Down' }, env)).rejects.toBeInstanceOf(UnavailableError);
    env.SVC_ARXIV_API_BASE = arxiv.url;
    await expect(reg.import({ source_type: 'arxiv', source: '2501.99999', title: 'Unknown' }, env)).rejects.toBeInstanceOf(NotFoundError);
    await expect(reg.import({ source_type: 'arxiv', source: 'not an id', title: 'Bad' }, env)).rejects.toBeInstanceOf(InputError);
    expect(existsSync(regDir)).toBe(false);
  });

  test('paper_id is sanitized to [A-Za-z0-9._-]{1,64}; nothing usable gives 12 random hex digits', async () => {
    expect((await reg.import(body({ paper_id: 'my paper/../x!' }), env)).paper_id).toBe('my_paper_.._x_');
    expect((await reg.import(body({ paper_id: 'é'.repeat(3) + 'a'.repeat(100) }), env)).paper_id).toBe(`_${'a'.repeat(63)}`);
    const random = await reg.import(body({ paper_id: '///' }), env);
    expect(random.paper_id).toMatch(/^[0-9a-f]{12}$/);
    const dots = await reg.import(body({ paper_id: '..' }), env);
    expect(dots.paper_id).toMatch(/^[0-9a-f]{12}$/);
    expect(readdirSync(join(regDir, 'papers')).sort()).toEqual(['my_paper_.._x_', `_${'a'.repeat(63)}`, random.paper_id, dots.paper_id].sort());
  });

  test('a duplicate is refused with the existing entry; overwrite replaces it and keeps its runs', async () => {
    const first = await reg.import(body({ ad_pdf_path: adPdf }), env);
    const run = reg.runDir('paper-a', 'job1');
    writeFileSync(join(run, 'rubric.json'), '{}');
    const before = manifestText();
    const err = await reg.import(body({ title: 'Other' }), env).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DuplicatePaperError);
    expect((err as DuplicatePaperError).existing).toEqual(first);
    expect((err as Error).message).toBe('paper paper-a is already in the registry');
    expect(manifestText()).toBe(before);
    const second = await reg.import(body({ title: 'Replaced', license: 'cc by-nc', overwrite: true }), env);
    expect(second).toMatchObject({ paper_id: 'paper-a', title: 'Replaced', license: 'cc by-nc', license_assessment: { usable: false, non_commercial: true } });
    expect(reg.list()).toEqual([second]);
    // the appendix of the first import is not part of the second
    expect(existsSync(join(first.registry_dir, 'ad.pdf'))).toBe(false);
    expect(readFileSync(join(run, 'rubric.json'), 'utf8')).toBe('{}');
  });

  test('a file that is not a PDF, a missing file and a relative path are refused; nothing is written', async () => {
    const notPdf = join(dir, 'notes.pdf');
    writeFileSync(notPdf, 'just text, named .pdf');
    await expect(reg.import(body({ pdf_path: notPdf }), env)).rejects.toThrow(`pdf_path ${notPdf} is not a PDF (it does not start with %PDF-)`);
    await expect(reg.import(body({ ae_pdf_path: join(dir, 'missing.pdf') }), env)).rejects.toBeInstanceOf(NotFoundError);
    await expect(reg.import(body({ pdf_path: 'paper.pdf' }), env)).rejects.toThrow(/must be an absolute path/);
    await expect(reg.import(body({ pdf_path: dir }), env)).rejects.toThrow(/is not a file/);
    // a local source is the PDF when pdf_path is not given: a relative one is refused as pdf_path's is
    await expect(reg.import(body({ source: 'paper.pdf', pdf_path: undefined }), env)).rejects.toThrow("source must be an absolute path, got 'paper.pdf'");
    expect(existsSync(regDir)).toBe(false);
    // with a registry in place: its manifest unchanged, no directory for the refused paper
    await reg.import(body(), env);
    const before = manifestText();
    await expect(reg.import(body({ paper_id: 'refused', ad_pdf_path: notPdf }), env)).rejects.toBeInstanceOf(InputError);
    expect(manifestText()).toBe(before);
    expect(readdirSync(join(regDir, 'papers'))).toEqual(['paper-a']);
    expect(readdirSync(regDir).sort()).toEqual(['.manifest.lock', 'manifest.jsonl', 'papers']);
  });

  test('a body the schema refuses is an InputError (the CLI has no route to check it)', async () => {
    await expect(reg.import(body({ title: '' }), env)).rejects.toThrow(/title/);
    await expect(reg.import(body({ title: '   ' }), env)).rejects.toBeInstanceOf(InputError);
    await expect(reg.import({ ...body(), source_type: 'ftp' } as unknown as ImportBody, env)).rejects.toBeInstanceOf(InputError);
    expect(existsSync(regDir)).toBe(false);
  });
});

describe('concurrency', () => {
  test('imports at once in one process keep every line', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `p${i}`);
    await Promise.all(ids.map((id) => reg.import(body({ paper_id: id }), env)));
    expect(reg.list().map((e) => e.paper_id).sort()).toEqual([...ids].sort());
    expect(manifestLines()).toHaveLength(20);
  });

  test('imports from several processes at once keep every line', async () => {
    const registry = resolve(import.meta.dir, '../../../src/bench/registry.ts');
    const script = (proc: number) => `
      const { PaperRegistry } = await import(${JSON.stringify(registry)});
      const reg = PaperRegistry.open(${JSON.stringify(regDir)});
      for (let i = 0; i < 10; i++) await reg.import({ source_type: 'local', source: 's', title: 't', paper_id: 'proc${proc}-' + i, pdf_path: ${JSON.stringify(paperPdf)} }, {});
    `;
    const procs = [0, 1, 2, 3].map((p) => Bun.spawn([process.execPath, '-e', script(p)], { stdout: 'pipe', stderr: 'pipe' }));
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(manifestLines()).toHaveLength(40);
    expect(new Set(reg.list().map((e) => e.paper_id)).size).toBe(40);
  });
});

test('delete removes the line and the directory; again, it is no error', async () => {
  await reg.import(body(), env);
  const other = await reg.import(body({ paper_id: 'paper-b' }), env);
  reg.runDir('paper-a', 'job1');
  expect(reg.delete('paper-a')).toEqual({ deleted: true, paper_id: 'paper-a' });
  expect(existsSync(join(regDir, 'papers', 'paper-a'))).toBe(false);
  expect(reg.list()).toEqual([other]);
  expect(reg.delete('paper-a')).toEqual({ deleted: false, paper_id: 'paper-a' });
  expect(reg.list()).toEqual([other]);
  expect(() => reg.delete('../paper-b')).toThrow(InputError);
  expect(PaperRegistry.open(join(dir, 'none')).delete('x')).toEqual({ deleted: false, paper_id: 'x' });
  expect(existsSync(join(dir, 'none'))).toBe(false);
});

test('delete moves the directory out under the lock and removes it after; what a crash left in the trash goes with the next delete', async () => {
  await reg.import(body(), env);
  await reg.import(body({ paper_id: 'paper-b' }), env);
  reg.runDir('paper-a', 'job1');
  // a delete that crashed after its rename, before the removal
  const leftover = join(regDir, '.trash', 'crashed');
  mkdirSync(join(leftover, 'runs', 'job0'), { recursive: true });
  writeFileSync(join(leftover, 'paper.pdf'), PDF);
  expect(reg.list().map((e) => e.paper_id)).toEqual(['paper-a', 'paper-b']);
  expect(readdirSync(join(regDir, 'papers')).sort()).toEqual(['paper-a', 'paper-b']);
  expect(reg.delete('paper-a')).toEqual({ deleted: true, paper_id: 'paper-a' });
  expect(readdirSync(join(regDir, '.trash'))).toEqual([]);
  expect(readdirSync(join(regDir, 'papers'))).toEqual(['paper-b']);
  expect(reg.list().map((e) => e.paper_id)).toEqual(['paper-b']);
});

describe('patch', () => {
  test('changes the fields given and classifies a new license again', async () => {
    const entry = await reg.import(body(), env);
    const next = reg.patch('paper-a', { title: 'New title', license: ' CC-BY-NC-4.0 ', year: 2025, authors: ['B'] });
    expect(next).toEqual({ ...entry, title: 'New title', year: 2025, authors: ['B'], license: 'cc-by-nc-4.0', license_assessment: expect.objectContaining({ non_commercial: true, usable: false }) });
    expect(reg.get('paper-a')).toEqual(next);
    expect(reg.license('paper-a')).toEqual(next.license_assessment);
    // a patch without license keeps the assessment
    expect(reg.patch('paper-a', { venue: 'ICML' }).license_assessment).toEqual(next.license_assessment);
  });

  test('paper_id is immutable; an unknown paper is not found; a bad value is refused', async () => {
    await reg.import(body(), env);
    const before = manifestText();
    expect(() => reg.patch('paper-a', { paper_id: 'other' } as never)).toThrow('paper_id cannot be changed');
    expect(reg.patch('paper-a', { paper_id: 'paper-a', venue: 'X' } as never).paper_id).toBe('paper-a');
    expect(() => reg.patch('nope', { title: 'x' })).toThrow(NotFoundError);
    expect(() => reg.patch('paper-a', { year: 'soon' } as never)).toThrow(InputError);
    expect(() => reg.patch('paper-a', { title: '' })).toThrow(InputError);
    // blank is refused as import refuses it: one rule in the schema
    expect(() => reg.patch('paper-a', { title: '   ' })).toThrow('metadata.title:');
    expect(() => reg.patch('paper-a', { source: ' \t ' })).toThrow('metadata.source:');
    expect(reg.get('paper-a')?.venue).toBe('X');
    expect(manifestText()).not.toBe(before);
    expect(() => reg.license('nope')).toThrow(NotFoundError);
    expect(() => PaperRegistry.open(join(dir, 'none')).patch('a', {})).toThrow(NotFoundError);
  });
});

test('a corrupt line is skipped when listing and kept in place by the next rewrite', async () => {
  await reg.import(body(), env);
  const good = manifestLines()[0] as string;
  writeFileSync(join(regDir, 'manifest.jsonl'), `${good}\n{"paper_id": "half\nnot json at all\n{"paper_id":"../x","title":"bad id"}\n`);
  expect(reg.list().map((e) => e.paper_id)).toEqual(['paper-a']);
  await reg.import(body({ paper_id: 'paper-b' }), env);
  expect(manifestLines()).toEqual([good, '{"paper_id": "half', 'not json at all', '{"paper_id":"../x","title":"bad id"}', expect.stringContaining('"paper_id":"paper-b"')]);
  reg.delete('paper-a');
  expect(manifestLines().slice(0, 3)).toEqual(['{"paper_id": "half', 'not json at all', '{"paper_id":"../x","title":"bad id"}']);
  expect(reg.list().map((e) => e.paper_id)).toEqual(['paper-b']);
});

test('list follows changes made by another process (the cache is keyed on the file)', async () => {
  await reg.import(body(), env);
  expect(reg.list()).toHaveLength(1);
  const line = manifestLines()[0] as string;
  writeFileSync(join(regDir, 'manifest.jsonl'), `${line}\n${line.replaceAll('paper-a', 'paper-z')}\n`);
  expect(reg.list().map((e) => e.paper_id)).toEqual(['paper-a', 'paper-z']);
});

test('runDir is <registry>/papers/<id>/runs/<job_id>/, created; a bad job id is refused', () => {
  const run = reg.runDir('paper-a', 'abc123');
  expect(run).toBe(join(regDir, 'papers', 'paper-a', 'runs', 'abc123'));
  expect(existsSync(run)).toBe(true);
  expect(() => reg.runDir('paper-a', '../../x')).toThrow(InputError);
});
