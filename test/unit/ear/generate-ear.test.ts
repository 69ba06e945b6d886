import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { curateBundle } from '../../../src/ear/curate.ts';
import { DEFAULT_PUBLISH_YAML } from '../../../src/ear/publish-config.ts';
import { numbersIn } from '../../../src/science/numbers.ts';
import { generateEar } from '../../../src/skills/transform/generate-ear.ts';
import { nodesToScienceData } from '../../../src/skills/transform/science-data.ts';
import { type ModelServer, startModelServer } from '../../support/model-server.ts';
import { ROOT_ID, writeScienceCheckpoint } from '../../support/science-checkpoint.ts';
import { type OpenAIChatRequest, researcherReply } from '../../support/scripted-researcher.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { callTool } from '../skills/coding/tool-call.ts';

let root: string;
let ckpt: string;
let server: ModelServer;
beforeEach(() => {
  root = tempDir();
  ckpt = writeScienceCheckpoint(root);
  server = startModelServer([], { respond: (body) => researcherReply(body as OpenAIChatRequest) });
});
afterEach(() => {
  server.stop();
  removeDir(root);
});

const env = () => ({
  PATH: process.env.PATH,
  HOME: root,
  SVC_ROOT: root,
  SVC_CHECKPOINT_DIR: ckpt,
  SVC_BACKEND: 'openai-compatible',
  LLM_API_BASE: `${server.url}/v1`,
  SVC_MODEL: 'scripted-researcher',
  SVC_LLM_MAX_RETRIES: '0',
  SVC_LLM_RECORD: 'off',
});
const scienceData = () => callTool(nodesToScienceData, { nodes_json_path: join(ckpt, 'nodes_tree.json') }, env());
const generate = (args: Record<string, unknown> = {}) => callTool(generateEar, { checkpoint_dir: ckpt, ...args }, env());
const ear = (rel: string) => readFileSync(join(ckpt, 'ear', rel), 'utf8');

/** Every file below a directory, relative to it, sorted. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('generate_ear', () => {
  test("fills ear/ with the best and the baseline's code, the data, RESULTS.md, README.md and publish.yaml; curation then bundles it", async () => {
    await scienceData();
    const manifest = await generate();
    expect(files(join(ckpt, 'ear'))).toEqual([
      'README.md',
      'RESULTS.md',
      'code/baseline/sort.js',
      'code/best/lib/gaps.js',
      'code/best/sort.js',
      `data/${ROOT_ID}/results.json`,
      'data/node_aaaa0001/results.json',
      'data/node_aaaa0002/results.json',
      'data/science_data.json',
      'publish.yaml',
    ]);
    // the bundle's science data points at its own copies, not at the author's workspace
    const bundled = JSON.parse(ear('data/science_data.json'));
    expect(bundled.configurations.map((c: { results_path: string }) => c.results_path)).toEqual([`data/${ROOT_ID}/results.json`, 'data/node_aaaa0001/results.json', 'data/node_aaaa0002/results.json']);
    expect(JSON.stringify(bundled)).not.toContain(root);
    expect(ear('data/node_aaaa0002/results.json')).toBe(readFileSync(join(root, 'workspace', 'experiments', '20260301120000_sorting', 'node_aaaa0002', 'results.json'), 'utf8'));
    expect(ear('publish.yaml')).toBe(DEFAULT_PUBLISH_YAML);
    expect(ear('README.md')).toContain('- `code/best/`: Shell sort, gap ratio 2.4, the best configuration.');

    const results = ear('RESULTS.md');
    expect(results).toContain('| best | Shell sort, gap ratio 2.4 | `node_aaaa0002` | 50 |');
    expect(results).toContain(`| baseline | Insertion sort | \`${ROOT_ID}\` | 1000 |`);
    expect(results).toContain('By comparisons, the best configuration is 20 times better than the baseline (`improvement.comparisons.ratio`).');
    // every number of the tables is one science_data.json holds
    const data = JSON.parse(readFileSync(join(ckpt, 'science_data.json'), 'utf8'));
    const held = new Set(numbersIn(JSON.stringify(data)));
    const table = results.split('\n').filter((l) => l.startsWith('|') || l.startsWith('By ') || l.startsWith('The change'));
    for (const n of table.flatMap((l) => numbersIn(l))) expect(held.has(n)).toBe(true);

    expect(manifest).toMatchObject({ ear_dir: join(ckpt, 'ear'), readme: 'model', publish_yaml: 'default written', kept: [] });
    expect(manifest.code).toEqual([
      { node_id: 'node_aaaa0002', name: 'Shell sort, gap ratio 2.4', role: 'best', dir: 'best', files: ['lib/gaps.js', 'sort.js'] },
      { node_id: ROOT_ID, name: 'Insertion sort', role: 'baseline', dir: 'baseline', files: ['sort.js'] },
    ]);
    expect(manifest.files.map((f: { path: string }) => f.path)).toContain('publish.yaml');
    expect(JSON.parse(readFileSync(join(ckpt, 'ear_manifest.json'), 'utf8'))).toEqual(manifest);

    const curated = await curateBundle(ckpt);
    expect(curated).toMatchObject({ skipped: false, file_count: 9 });
    expect(existsSync(join(ckpt, 'ear_published', 'RESULTS.md'))).toBe(true);
  });

  test("a second run keeps the author's files and publish.yaml, and replaces what it made", async () => {
    await scienceData();
    mkdirSync(join(ckpt, 'ear', 'code', 'older'), { recursive: true });
    writeFileSync(join(ckpt, 'ear', 'code', 'older', 'old.js'), '// old\n');
    writeFileSync(join(ckpt, 'ear', 'publish.yaml'), 'include: ["**/*"]\nlicense: MIT\n');
    writeFileSync(join(ckpt, 'ear', 'NOTES.md'), 'mine\n');
    const manifest = await generate();
    expect(manifest).toMatchObject({ publish_yaml: 'kept', kept: ['NOTES.md', 'publish.yaml'] });
    expect(ear('publish.yaml')).toBe('include: ["**/*"]\nlicense: MIT\n');
    expect(ear('NOTES.md')).toBe('mine\n');
    expect(existsSync(join(ckpt, 'ear', 'code', 'older'))).toBe(false);
    expect(manifest.files.map((f: { path: string }) => f.path)).not.toContain('NOTES.md');
    // nothing of the work left beside the checkpoint
    expect(readdirSync(ckpt).filter((n) => n.startsWith('.ear'))).toEqual([]);
  });

  test('no model answer: the deterministic README, with a note', async () => {
    await scienceData();
    server.push({ status: 500 });
    const manifest = await generate();
    expect(manifest.readme).toBe('deterministic');
    expect(manifest.notes.some((n: string) => n.startsWith('README.md is deterministic: the model gave none ('))).toBe(true);
    const readme = ear('README.md');
    expect(readme).toStartWith('# Geometric gaps\n');
    expect(readme).toContain('- `code/best/`: the code of the best configuration, Shell sort, gap ratio 2.4 (node node_aaaa0002): `lib/gaps.js`, `sort.js`.');
  });

  test('a README quoting a number from nowhere is replaced by the deterministic one', async () => {
    await scienceData();
    server.push({ text: '# Bundle\n\nShell sort needs 50 comparisons.\n' });
    const manifest = await generate();
    expect(manifest.readme).toBe('deterministic');
    expect(manifest.notes).toContain("README.md is deterministic: the model's quotes 50, which neither the experiment, the method nor a setting gives");
  });

  test('bad inputs: no science data, one without a best configuration, not a checkpoint; ear/ untouched', async () => {
    await expect(generate()).rejects.toThrow(`${ckpt} has no science_data.json`);
    expect(existsSync(join(ckpt, 'ear'))).toBe(false);
    await scienceData();
    const data = JSON.parse(readFileSync(join(ckpt, 'science_data.json'), 'utf8'));
    writeFileSync(join(ckpt, 'science_data.json'), JSON.stringify({ ...data, best: null, baseline: null }));
    await expect(generate()).rejects.toThrow('science_data.json names no best configuration');
    writeFileSync(join(ckpt, 'science_data.json'), '{"schema_version": 1}');
    await expect(generate()).rejects.toThrow(`${join(ckpt, 'science_data.json')} is not valid science data: primary_metric: expected required property`);
    expect(existsSync(join(ckpt, 'ear'))).toBe(false);
    mkdirSync(join(root, 'plain'));
    await expect(generate({ checkpoint_dir: join(root, 'plain') })).rejects.toThrow('is not a checkpoint');
  });
});
