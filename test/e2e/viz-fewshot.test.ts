import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

const SPEC_IDS = ['neurips', 'iclr', 'icml', 'cvpr', 'acl', 'sc', 'osdi', 'usenix_security', 'stoc', 'siggraph', 'chi', 'icra', 'nature', 'journal_generic', 'workshop', 'generic_conference'];
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

let dir: string;
let rubrics: string;
let examples: string;
let viz: Viz | undefined;
beforeEach(() => {
  dir = tempDir();
  mkdirSync(join(dir, 'workspace', 'checkpoints'), { recursive: true });
  rubrics = join(dir, 'reviewer_rubrics');
  examples = join(rubrics, 'fewshot_examples', 'neurips');
});
afterEach(async () => {
  await viz?.stop();
  viz = undefined;
  removeDir(dir);
});

/** The dashboard of a project in `dir` (its project root: it holds `workspace/`). */
async function start(env: Record<string, string> = {}): Promise<Viz> {
  viz = await startViz([], { cwd: dir, env });
  return viz;
}

/** The reference fixture (ari-wire-formats 3.9): a minimal neurips.yaml, sc.yaml, and attention.json with its excerpt and a README. */
function writeReferenceFixture(): void {
  mkdirSync(examples, { recursive: true });
  writeFileSync(join(rubrics, 'neurips.yaml'), 'id: neurips\nvenue: NeurIPS\nscore_dimensions:\n  - {name: overall, scale: [1, 10]}\n');
  writeFileSync(join(rubrics, 'sc.yaml'), 'id: sc\nvenue: SC\nscore_dimensions:\n  - {name: overall, scale: [1, 5]}\n');
  writeFileSync(join(examples, 'attention.json'), '{"_source": "test fixture", "soundness": 4, "overall": 8, "decision": "accept"}');
  writeFileSync(join(examples, 'attention.txt'), 'Attention Is All You Need');
  writeFileSync(join(examples, 'README.md'), '# NeurIPS examples\n');
}

/** Every file under the project, for "nothing written" checks. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).sort();
}

describe('GET /api/rubrics', () => {
  test('the sixteen bundled rubrics, neurips by default', async () => {
    const { status, body } = await (await start()).get('/api/rubrics');
    expect(status).toBe(200);
    expect(body.rubrics.map((r: { id: string }) => r.id)).toEqual(SPEC_IDS);
    expect(body.default).toBe('neurips');
    expect(body.problems).toEqual([]);
    expect(body.warning).toBeUndefined();
    expect(body.rubrics[0]).toMatchObject({ id: 'neurips', venue: 'NeurIPS', source: 'bundled', version: expect.any(String), domain: expect.any(String) });
    expect(body.rubrics[0].dimensions).toEqual(expect.arrayContaining(['soundness', 'presentation', 'contribution', 'overall', 'confidence']));
  });

  test('SVC_RUBRIC chooses the default', async () => {
    const { body } = await (await start({ SVC_RUBRIC: 'iclr' })).get('/api/rubrics');
    expect(body.default).toBe('iclr');
    expect(body.warning).toBeUndefined();
  });

  test('SVC_RUBRIC naming an unknown rubric: neurips, with a warning naming it', async () => {
    const { status, body } = await (await start({ SVC_RUBRIC: 'icse' })).get('/api/rubrics');
    expect(status).toBe(200);
    expect(body.default).toBe('neurips');
    expect(body.warning).toContain("'icse'");
  });

  test('SVC_RUBRIC may name a rubric of the project', async () => {
    mkdirSync(rubrics);
    writeFileSync(join(rubrics, 'mylab.yaml'), 'venue: Lab\nscore_dimensions:\n  - {name: overall, scale: [1, 3]}\n');
    const { body } = await (await start({ SVC_RUBRIC: 'mylab' })).get('/api/rubrics');
    expect(body.default).toBe('mylab');
    expect(body.rubrics.at(-1)).toEqual({ id: 'mylab', venue: 'Lab', domain: null, version: null, source: join(rubrics, 'mylab.yaml'), dimensions: ['overall'] });
  });

  test('the reference fixture overrides neurips and sc; a malformed file is a problem, not a crash', async () => {
    writeReferenceFixture();
    writeFileSync(join(rubrics, 'iclr.yaml'), 'score_dimensions:\n  - {name: overall, scale: [ten, one]}\n');
    writeFileSync(join(rubrics, 'broken.yml'), 'venue: [\n');
    const { status, body } = await (await start({ SVC_RUBRIC: 'broken' })).get('/api/rubrics');
    expect(status).toBe(200);
    const byId = Object.fromEntries(body.rubrics.map((r: { id: string }) => [r.id, r]));
    expect(byId.neurips).toMatchObject({ source: join(rubrics, 'neurips.yaml'), dimensions: ['overall'] });
    expect(byId.sc).toMatchObject({ source: join(rubrics, 'sc.yaml'), dimensions: ['overall'] });
    expect(byId.iclr.source).toBe('bundled');
    expect(byId.broken).toBeUndefined();
    expect(body.problems).toHaveLength(2);
    expect(body.problems[0]).toStartWith(`${join(rubrics, 'broken.yml')}:`);
    expect(body.problems[1]).toStartWith(`${join(rubrics, 'iclr.yaml')}: score_dimensions[0].scale[0]`);
    expect(body.default).toBe('neurips');
    expect(body.warning).toContain("'broken'");
  });
});

describe('GET /api/fewshot/:rubric', () => {
  test('the reference fixture: one example with its excerpt; README.md is ignored', async () => {
    writeReferenceFixture();
    const { status, body } = await (await start()).get('/api/fewshot/neurips');
    expect(status).toBe(200);
    expect(body).toEqual({
      rubric: 'neurips',
      examples: [{ id: 'attention', record: { _source: 'test fixture', soundness: 4, overall: 8, decision: 'accept' }, has_text: true, has_pdf: false, source: 'test fixture' }],
      problems: [],
    });
  });

  test('a known rubric without examples; a rubric only the project defines', async () => {
    mkdirSync(rubrics);
    writeFileSync(join(rubrics, 'mylab.yml'), 'score_dimensions:\n  - {name: overall, scale: [1, 3]}\n');
    const v = await start();
    expect(await v.get('/api/fewshot/stoc')).toEqual({ status: 200, body: { rubric: 'stoc', examples: [], problems: [] } });
    expect(await v.get('/api/fewshot/mylab')).toEqual({ status: 200, body: { rubric: 'mylab', examples: [], problems: [] } });
  });

  test('unknown rubric: 404', async () => {
    const { status, body } = await (await start()).get('/api/fewshot/icse');
    expect(status).toBe(404);
    expect(body.error).toContain("unknown rubric 'icse'");
  });

  test('../ and slashes are stripped from the rubric id; nothing left: 400', async () => {
    writeReferenceFixture();
    const v = await start();
    const cleaned = await v.get('/api/fewshot/..%2F..%2Fneurips');
    expect(cleaned.status).toBe(200);
    expect(cleaned.body.rubric).toBe('neurips');
    expect(cleaned.body.examples).toHaveLength(1);
    for (const id of ['..%2F..', '%2F', '...']) {
      const { status, body } = await v.get(`/api/fewshot/${id}`);
      expect(status).toBe(400);
      expect(body.error).toContain('is empty once reduced');
    }
  });
});

describe('POST /api/fewshot/:rubric/sync', () => {
  test('copies the published entries once; then reports them skipped', async () => {
    const v = await start();
    const first = await v.post('/api/fewshot/neurips/sync');
    expect(first.status).toBe(200);
    expect(first.body.synced.length).toBeGreaterThanOrEqual(2);
    expect(first.body.skipped).toEqual([]);
    const listed = await v.get('/api/fewshot/neurips');
    expect(listed.body.examples.map((e: { id: string }) => e.id).sort()).toEqual([...first.body.synced].sort());
    for (const e of listed.body.examples) expect(e).toMatchObject({ source: 'svc corpus', has_text: true, has_pdf: false });
    const second = await v.post('/api/fewshot/neurips/sync');
    expect(second.body).toEqual({ rubric: 'neurips', synced: [], skipped: first.body.synced });
  });

  test('an existing file is not overwritten', async () => {
    const v = await start();
    const { body } = await v.post('/api/fewshot/iclr/sync');
    const [id] = body.synced;
    const record = join(rubrics, 'fewshot_examples', 'iclr', `${id}.json`);
    writeFileSync(record, '{"overall": 1}');
    expect((await v.post('/api/fewshot/iclr/sync')).body).toEqual({ rubric: 'iclr', synced: [], skipped: [id] });
    expect(readFileSync(record, 'utf8')).toBe('{"overall": 1}');
  });

  test('unknown rubric: 404, nothing written', async () => {
    const { status } = await (await start()).post('/api/fewshot/icse/sync');
    expect(status).toBe(404);
    expect(existsSync(rubrics)).toBe(false);
  });
});

describe('POST /api/fewshot/:rubric/upload', () => {
  const review = { overall: 7, soundness: 3, confidence: 4, summary: 'A clear paper.', decision: 'accept' };

  test('writes the record tagged with the rubric, the excerpt and the PDF', async () => {
    const v = await start();
    const { status, body } = await v.post('/api/fewshot/neurips/upload', { id: 'my_paper', review: { ...review, _source: 'elsewhere' }, text: 'An excerpt.', pdf_base64: PDF.toString('base64') });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, rubric: 'neurips', id: 'my_paper', files: ['my_paper.json', 'my_paper.pdf', 'my_paper.txt'] });
    expect(JSON.parse(readFileSync(join(examples, 'my_paper.json'), 'utf8'))).toEqual({ _source: 'rubric:neurips', ...review });
    expect(readFileSync(join(examples, 'my_paper.txt'), 'utf8')).toBe('An excerpt.');
    expect(readFileSync(join(examples, 'my_paper.pdf'))).toEqual(PDF);
    const listed = await v.get('/api/fewshot/neurips');
    expect(listed.body.examples).toEqual([{ id: 'my_paper', record: { _source: 'rubric:neurips', ...review }, has_text: true, has_pdf: true, source: 'rubric:neurips' }]);
  });

  test('the ARI web UI\'s shape: example_id, review_json (object or JSON text), paper_txt, paper_pdf', async () => {
    const v = await start();
    const a = await v.post('/api/fewshot/neurips/upload', { example_id: 'ui_paper', review_json: JSON.stringify(review), paper_txt: 'From the UI.', paper_pdf: PDF.toString('base64') });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ ok: true, rubric: 'neurips', id: 'ui_paper', files: ['ui_paper.json', 'ui_paper.pdf', 'ui_paper.txt'] });
    expect(JSON.parse(readFileSync(join(examples, 'ui_paper.json'), 'utf8'))).toEqual({ _source: 'rubric:neurips', ...review });
    expect(readFileSync(join(examples, 'ui_paper.txt'), 'utf8')).toBe('From the UI.');
    const b = await v.post('/api/fewshot/neurips/upload', { example_id: 'ui_object', review_json: review });
    expect(b.status).toBe(200);
    // deleted the ARI way: POST /api/fewshot/<rubric>/<example_id>/delete
    const gone = await v.post('/api/fewshot/neurips/ui_paper/delete');
    expect(gone.status).toBe(200);
    expect(existsSync(join(examples, 'ui_paper.json'))).toBe(false);
    expect(existsSync(join(examples, 'ui_paper.pdf'))).toBe(false);
    for (const [payload, message] of [
      [{ example_id: 'x', review_json: '{"overall": ' }, 'review_json is not JSON'],
      [{ example_id: 'x', review_json: '"great"' }, 'review must be a JSON object'],
      [{ review_json: review }, 'body.id'],
      [{ example_id: 'x', review_json: { ...review, overall: 11 } }, 'review.overall: 11 is outside the scale'],
    ] as const) {
      const res = await v.post('/api/fewshot/neurips/upload', payload);
      expect([res.status, res.body.error]).toEqual([400, expect.stringContaining(message)]);
    }
    expect(existsSync(join(examples, 'x.json'))).toBe(false);
  });

  test('name is accepted for id; ../ and slashes in it are stripped and the file stays inside', async () => {
    const v = await start();
    const { status, body } = await v.post('/api/fewshot/neurips/upload', { name: '../../../../tmp/evil', review });
    expect(status).toBe(200);
    expect(body.id).toBe('tmpevil');
    expect(filesUnder(dir).filter((f) => !f.startsWith('workspace'))).toEqual(['reviewer_rubrics', 'reviewer_rubrics/fewshot_examples', 'reviewer_rubrics/fewshot_examples/neurips', 'reviewer_rubrics/fewshot_examples/neurips/tmpevil.json']);
  });

  test('the rubric of the project decides what a review may hold', async () => {
    writeReferenceFixture();
    const v = await start();
    const { status, body } = await v.post('/api/fewshot/neurips/upload', { id: 'x', review });
    expect(status).toBe(400);
    expect(body.error).toContain('review.soundness: not a score dimension');
    expect((await v.post('/api/fewshot/neurips/upload', { id: 'x', review: { overall: 9 } })).status).toBe(200);
  });

  test.each([
    ['unknown rubric', '/api/fewshot/icse/upload', { id: 'x', review }, 404, "unknown rubric 'icse'"],
    ['rubric id with nothing left', '/api/fewshot/..%2F/upload', { id: 'x', review }, 400, 'is empty once reduced'],
    ['example id with nothing left', '/api/fewshot/neurips/upload', { id: '../', review }, 400, 'example id'],
    ['no example id', '/api/fewshot/neurips/upload', { review }, 400, 'body.id'],
    ['a review that is text', '/api/fewshot/neurips/upload', { id: 'x', review: 'great' }, 400, 'review must be a JSON object'],
    ['a review that is a list', '/api/fewshot/neurips/upload', { id: 'x', review: [7] }, 400, 'review must be a JSON object'],
    ['no review', '/api/fewshot/neurips/upload', { id: 'x' }, 400, 'review must be a JSON object'],
    ['an id that is a number', '/api/fewshot/neurips/upload', { id: 7, review }, 400, 'body.id'],
    ['text that is a number', '/api/fewshot/neurips/upload', { id: 'x', review, text: 3 }, 400, 'body.text'],
    ['a score as text', '/api/fewshot/neurips/upload', { id: 'x', review: { ...review, overall: '7' } }, 400, 'review.overall: must be a number'],
    ['a score above its scale', '/api/fewshot/neurips/upload', { id: 'x', review: { ...review, soundness: 5 } }, 400, 'review.soundness: 5 is outside the scale [1, 4]'],
    ['a score below its scale', '/api/fewshot/neurips/upload', { id: 'x', review: { ...review, overall: 0 } }, 400, 'review.overall: 0 is outside the scale [1, 10]'],
    ['a key the rubric does not have', '/api/fewshot/neurips/upload', { id: 'x', review: { ...review, excitement: 3 } }, 400, 'review.excitement: not a score dimension'],
    ['a decision the rubric does not offer', '/api/fewshot/neurips/upload', { id: 'x', review: { ...review, decision: 'maybe' } }, 400, "review.decision: 'maybe' is not one of accept, reject"],
    ['a PDF that is HTML', '/api/fewshot/neurips/upload', { id: 'x', review, text: 't', pdf_base64: Buffer.from('<html></html>').toString('base64') }, 400, 'does not decode to a PDF'],
    ['a PDF that is not base64', '/api/fewshot/neurips/upload', { id: 'x', review, pdf_base64: '%PDF-1.4 raw' }, 400, 'not valid base64'],
    ['an excerpt over 2 MB', '/api/fewshot/neurips/upload', { id: 'x', review, text: 'x'.repeat(2 * 1024 * 1024 + 1) }, 413, 'text is larger than 2 MB'],
  ])('%s: %d, nothing written', async (_what, path, payload, status, message) => {
    const v = await start();
    const res = await v.post(path, payload);
    expect(res.status).toBe(status);
    expect(res.body.error).toContain(message);
    expect(existsSync(rubrics)).toBe(false);
  });

  test('malformed JSON: 400, nothing written', async () => {
    const v = await start();
    const res = await v.req('/api/fewshot/neurips/upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id": "x", "review": {"overall": 7}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('malformed request body');
    expect(existsSync(rubrics)).toBe(false);
  });

  test('an example that exists is not replaced: 409', async () => {
    const v = await start();
    expect((await v.post('/api/fewshot/neurips/upload', { id: 'x', review, text: 'first' })).status).toBe(200);
    const again = await v.post('/api/fewshot/neurips/upload', { id: 'x', review: { overall: 2 } });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain("example 'x' of rubric neurips already exists");
    expect(JSON.parse(readFileSync(join(examples, 'x.json'), 'utf8')).overall).toBe(7);
    expect(readFileSync(join(examples, 'x.txt'), 'utf8')).toBe('first');
  });

  test('a rubric whose only definition is malformed cannot take uploads: 409', async () => {
    mkdirSync(rubrics);
    writeFileSync(join(rubrics, 'mylab.yaml'), 'score_dimensions: 3\n');
    const res = await (await start()).post('/api/fewshot/mylab/upload', { id: 'x', review: { overall: 1 } });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('mylab.yaml');
    expect(existsSync(join(rubrics, 'fewshot_examples'))).toBe(false);
  });
});

describe('deleting an example', () => {
  beforeEach(() => {
    mkdirSync(examples, { recursive: true });
    for (const n of ['attention.json', 'attention.txt', 'attention.pdf', 'attention.notes', 'attention2.json', 'README.md']) writeFileSync(join(examples, n), '{}');
  });

  test('POST /api/fewshot/:rubric/delete removes every extension of the example', async () => {
    const { status, body } = await (await start()).post('/api/fewshot/neurips/delete', { example: 'attention' });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, rubric: 'neurips', id: 'attention', deleted: ['attention.json', 'attention.notes', 'attention.pdf', 'attention.txt'] });
    expect(readdirSync(examples).sort()).toEqual(['README.md', 'attention2.json']);
  });

  test('the alias POST /api/fewshot/:rubric/:example/delete does the same', async () => {
    const { status, body } = await (await start()).post('/api/fewshot/neurips/attention/delete');
    expect(status).toBe(200);
    expect(body.deleted).toEqual(['attention.json', 'attention.notes', 'attention.pdf', 'attention.txt']);
    expect(readdirSync(examples).sort()).toEqual(['README.md', 'attention2.json']);
  });

  test('../ in the example id is stripped: a file outside the examples directory stays', async () => {
    writeFileSync(join(rubrics, 'fewshot_examples', 'attention.json'), '{}');
    const v = await start();
    expect((await v.post('/api/fewshot/neurips/..%2Fattention/delete')).body.deleted).toContain('attention.json');
    expect(existsSync(join(rubrics, 'fewshot_examples', 'attention.json'))).toBe(true);
    expect((await v.post('/api/fewshot/neurips/delete', { example: '../../attention2' })).body.deleted).toEqual(['attention2.json']);
  });

  test.each([
    ['nothing matched', '/api/fewshot/neurips/delete', { example: 'attn' }, 404, "no example 'attn' for rubric neurips"],
    ['nothing matched (alias)', '/api/fewshot/neurips/attn/delete', undefined, 404, "no example 'attn'"],
    ['unknown rubric', '/api/fewshot/icse/delete', { example: 'attention' }, 404, "unknown rubric 'icse'"],
    ['unknown rubric (alias)', '/api/fewshot/icse/attention/delete', undefined, 404, "unknown rubric 'icse'"],
    ['an example id with nothing left', '/api/fewshot/neurips/delete', { example: '../..' }, 400, 'example id'],
    ['no example id', '/api/fewshot/neurips/delete', {}, 400, 'body.example'],
    ['an example id that is a number', '/api/fewshot/neurips/delete', { example: 3 }, 400, 'body.example'],
  ])('%s: %d, nothing removed', async (_what, path, payload, status, message) => {
    const res = await (await start()).post(path, payload);
    expect(res.status).toBe(status);
    expect(res.body.error).toContain(message);
    expect(readdirSync(examples).sort()).toEqual(['README.md', 'attention.json', 'attention.notes', 'attention.pdf', 'attention.txt', 'attention2.json']);
  });
});
