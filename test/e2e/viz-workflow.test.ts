import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let project: string;
let root: string;
let viz: Viz | undefined;
beforeEach(() => {
  dir = tempDir();
  project = join(dir, 'project');
  root = join(project, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
});
afterEach(async () => {
  await viz?.stop();
  viz = undefined;
  removeDir(dir);
});

const start = async (env: Record<string, string> = {}) => {
  viz = await startViz([], { cwd: dir, env: { HOME: dir, SVC_ROOT: project, ...env } });
  return viz;
};
const withCheckpoint = async (workflowYaml?: string, env: Record<string, string> = {}) => {
  const ck = writeCheckpoint(root);
  if (workflowYaml !== undefined) writeFileSync(join(ck, 'workflow.yaml'), workflowYaml);
  return { ck, copy: join(ck, 'workflow.yaml'), v: await start(env) };
};

describe('reading the workflow', () => {
  test('without a checkpoint copy: the bundled default', async () => {
    const { v } = await withCheckpoint();
    const { status, body } = await v.get('/api/workflow');
    expect(status).toBe(200);
    expect(body.source).toBe('bundled');
    expect(body.workflow.llm.model).toBe('qwen3:4b');
    expect(parse(body.yaml).pipeline.length).toBe(body.workflow.pipeline.length);
    const def = await v.get('/api/workflow/default');
    expect(def.status).toBe(200);
    expect(def.body.workflow).toEqual(body.workflow);
    expect(parse(def.body.yaml).skills).toEqual(def.body.workflow.skills);
  });

  test("the checkpoint's copy: its path, its text, the parsed result over the default", async () => {
    const text = '# for this run\nllm: {model: tuned-model}\n';
    const { v, copy } = await withCheckpoint(text);
    const { body } = await v.get('/api/workflow');
    expect(body).toMatchObject({ path: copy, source: 'checkpoint', yaml: text });
    expect(body.workflow.llm).toEqual({ backend: 'localllm', model: 'tuned-model', base_url: '' });
    expect(body.workflow.skills).toHaveLength(13);
  });

  test('a value expanded from a secret variable is shown as its reference', async () => {
    const { v } = await withCheckpoint('llm: {model: m, api_key: "${PROVIDERA_API_KEY}"}\n', { PROVIDERA_API_KEY: 'sk-distinct-secret-77' });
    const { body } = await v.get('/api/workflow');
    expect(body.workflow.llm.api_key).toBe('${PROVIDERA_API_KEY}');
    expect(JSON.stringify(body)).not.toContain('sk-distinct-secret-77');
  });

  test('the flow: unique node ids where a stage repeats, edges of both kinds', async () => {
    const { v } = await withCheckpoint();
    const { status, body } = await v.get('/api/workflow/flow');
    expect(status).toBe(200);
    const ids = body.nodes.map((n: { id: string }) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('ear_publish');
    expect(ids).toContain('ear_publish#2');
    expect(body.nodes.find((n: { id: string }) => n.id === 'write_paper')).toEqual({ id: 'write_paper', stage: 'write_paper', group: 'pipeline', list: 'pipeline', skill: 'paper-skill', tool: 'write_paper_iterative', phase: 'paper', enabled: true });
    expect(body.nodes.find((n: { id: string }) => n.id === 'generate_idea').group).toBe('bfts');
    expect(body.edges).toContainEqual({ from: 'frontier_expand', to: 'select_and_run', kind: 'loop_back_to' });
    expect(body.edges).toContainEqual({ from: 'write_paper', to: 'review_paper', kind: 'depends_on' });
  });
});

describe('POST /api/workflow', () => {
  test('YAML is checked and written as the checkpoint copy, never elsewhere', async () => {
    const projectWorkflow = 'llm: {model: project-file}\n';
    writeFileSync(join(project, 'workflow.yaml'), projectWorkflow);
    const { v, copy } = await withCheckpoint();
    const before = await v.get('/api/workflow/default');
    const text = '# edited\nllm: {model: edited}\nresources: {cpus: 2}\n';
    const { status, body } = await v.post('/api/workflow', { yaml: text });
    expect(status).toBe(200);
    expect(body).toMatchObject({ path: copy, source: 'checkpoint', yaml: text });
    expect(body.workflow.resources.cpus).toBe(2);
    expect(readFileSync(copy, 'utf8')).toBe(text);
    expect((await v.get('/api/workflow/default')).body).toEqual(before.body);
    expect(readFileSync(join(project, 'workflow.yaml'), 'utf8')).toBe(projectWorkflow);
  });

  test('{pipeline: [...]} (the ARI web UI) replaces the pipeline only: other keys, comments and every stage field stay', async () => {
    const original = '# my run\nllm: {model: kept}  # the model\npipeline:\n  - {stage: write_paper, skill: paper-skill, tool: write_paper_iterative, depends_on: [], enabled: true, phase: paper}\n';
    const { v, copy } = await withCheckpoint(original);
    const pipeline = [
      { stage: 'search_related_work', skill: 'web-skill', tool: 'collect_references_iterative', depends_on: [], enabled: true, phase: 'paper', description: 'find the related work' },
      { stage: 'write_paper', skill: 'paper-skill', tool: 'write_paper_iterative', depends_on: ['search_related_work'], enabled: false, phase: 'paper' },
    ];
    const { status, body } = await v.post('/api/workflow', { pipeline });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.workflow.pipeline.map((st: { stage: string; enabled?: boolean }) => [st.stage, st.enabled])).toEqual([['search_related_work', true], ['write_paper', false]]);
    expect(body.workflow.pipeline[0].description).toBe('find the related work');
    expect(body.workflow.llm.model).toBe('kept');
    const text = readFileSync(copy, 'utf8');
    expect(text).toContain('# my run');
    expect(text).toContain('# the model');
  });

  test('a workflow object is written as YAML', async () => {
    const { v, copy } = await withCheckpoint();
    const { status, body } = await v.post('/api/workflow', { workflow: { llm: { model: 'from-object' }, bfts: { max_nodes: 7 } } });
    expect(status).toBe(200);
    expect(body.workflow.bfts.max_nodes).toBe(7);
    expect(parse(readFileSync(copy, 'utf8'))).toEqual({ llm: { model: 'from-object' }, bfts: { max_nodes: 7 } });
  });

  test('bad input is a 400 (413 when too large) naming the problem, and the copy is unchanged', async () => {
    const original = '# keep\nllm: {model: kept}\n';
    const { v, copy } = await withCheckpoint(original);
    const cases: [unknown, number, string][] = [
      [{ yaml: 'llm: {model: [unclosed\n' }, 400, `${copy}:`],
      [{ yaml: 'resources: {cpus: 0}\n' }, 400, 'resources.cpus'],
      [{ yaml: 'container: {mode: vm}\n' }, 400, 'container.mode: must be one of auto, docker'],
      [{ yaml: 'pipeline:\n  - {stage: a, depends_on: [b]}\n' }, 400, "pipeline[0].depends_on: unknown stage 'b'"],
      [{ yaml: '- a list\n' }, 400, 'must be a mapping of keys'],
      [{ workflow: { resources: { executor: 'cloud' } } }, 400, 'resources.executor'],
      [{ yaml: 'a: 1\n', workflow: {} }, 400, 'exactly one of yaml'],
      [{}, 400, 'exactly one of yaml'],
      [{ yaml: 5 }, 400, 'yaml'],
      [{ yaml: `# ${'x'.repeat(1024 * 1024)}\n` }, 413, 'the limit is'],
    ];
    for (const [body, status, message] of cases) {
      const res = await v.post('/api/workflow', body);
      expect([res.status, res.body.error]).toEqual([status, expect.stringContaining(message)]);
    }
    const malformed = await v.req('/api/workflow', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"yaml": "a' });
    expect(malformed.status).toBe(400);
    expect(readFileSync(copy, 'utf8')).toBe(original);
  });

  test('a broken copy can be replaced', async () => {
    const { v, copy } = await withCheckpoint('llm: {model: m}\n');
    writeFileSync(copy, 'llm: [\n');
    const broken = await v.get('/api/workflow');
    expect([broken.status, broken.body.error]).toEqual([400, expect.stringContaining(copy)]);
    expect((await v.post('/api/workflow', { yaml: 'llm: {model: fixed}\n' })).status).toBe(200);
    expect(readFileSync(copy, 'utf8')).toBe('llm: {model: fixed}\n');
  });
});

describe('without an active checkpoint', () => {
  test('every write is a 409 and nothing is written', async () => {
    const v = await start();
    const writes: [string, unknown][] = [
      ['/api/workflow', { yaml: 'llm: {model: x}\n' }],
      ['/api/workflow/flow', { nodes: [], edges: [] }],
      ['/api/workflow/skills', { name: 'idea-skill', enabled: false }],
      ['/api/workflow/disabled-tools', { skill: 'web-skill', tools: ['x'] }],
    ];
    for (const [path, body] of writes) {
      const res = await v.post(path, body);
      expect([path, res.status, res.body.error]).toEqual([path, 409, expect.stringContaining('no active checkpoint')]);
    }
    expect((await v.get('/api/workflow')).body.source).toBe('bundled');
    expect(existsSync(join(project, 'workflow.yaml'))).toBe(false);
  });
});

describe('POST /api/workflow/flow', () => {
  test('rebuilds depends_on from the edges and applies enabled flags to the copy', async () => {
    const { v, copy } = await withCheckpoint();
    const flow = (await v.get('/api/workflow/flow')).body;
    const edges = flow.edges.filter((e: { from: string; to: string }) => !(e.from === 'generate_figures' && e.to === 'write_paper'));
    const { status, body } = await v.post('/api/workflow/flow', { nodes: [{ id: 'generate_figures', enabled: false }], edges });
    expect(status).toBe(200);
    expect(body.nodes.find((n: { id: string }) => n.id === 'generate_figures').enabled).toBe(false);
    const wf = (await v.get('/api/workflow')).body.workflow;
    const stage = (name: string) => wf.pipeline.find((s: { stage: string }) => s.stage === name);
    expect(stage('write_paper').depends_on).toEqual(['search_related_work', 'generate_ear']);
    expect(stage('generate_figures').enabled).toBe(false);
    expect(existsSync(copy)).toBe(true);
  });

  test('a cycle, an unknown stage or a bad body is a 400 and the copy is unchanged', async () => {
    const original = 'llm: {model: kept}\n';
    const { v, copy } = await withCheckpoint(original);
    const cases: [unknown, string][] = [
      [
        {
          nodes: [],
          edges: [
            { from: 'write_paper', to: 'review_paper', kind: 'depends_on' },
            { from: 'review_paper', to: 'write_paper', kind: 'depends_on' },
          ],
        },
        'cycle',
      ],
      [{ nodes: [{ id: 'no_such_stage', enabled: false }], edges: [] }, "unknown node 'no_such_stage'"],
      [{ nodes: [], edges: [{ from: 'write_paper', to: 'review_paper', kind: 'feeds' }] }, 'kind'],
      [{ nodes: 'all', edges: [] }, 'nodes'],
    ];
    for (const [body, message] of cases) {
      const res = await v.post('/api/workflow/flow', body);
      expect([res.status, res.body.error]).toEqual([400, expect.stringContaining(message)]);
    }
    expect(readFileSync(copy, 'utf8')).toBe(original);
  });
});

describe('POST /api/workflow/skills and /api/workflow/disabled-tools', () => {
  test('a skill goes off with phase none and back on with its phase', async () => {
    const { v } = await withCheckpoint();
    const off = await v.post('/api/workflow/skills', { name: 'web-skill', enabled: false });
    expect(off.status).toBe(200);
    expect(off.body.workflow.skills.find((s: { name: string }) => s.name === 'web-skill')).toMatchObject({ phase: 'none', phase_when_enabled: ['paper', 'reproduce'] });
    const on = await v.post('/api/workflow/skills', { name: 'web-skill', enabled: true });
    expect(on.body.workflow.skills.find((s: { name: string }) => s.name === 'web-skill')).toEqual({ name: 'web-skill', path: 'builtin', phase: ['paper', 'reproduce'] });
  });

  test('disabled tools are stored per skill; older bare entries stay; GET shows them', async () => {
    const { v } = await withCheckpoint('disabled_tools: [run_bash]\n');
    const res = await v.post('/api/workflow/disabled-tools', { skill: 'paper-skill', tools: ['compile_paper', 'review_compiled_paper'] });
    expect(res.status).toBe(200);
    expect((await v.get('/api/workflow')).body.workflow.disabled_tools).toEqual(['run_bash', 'paper-skill:compile_paper', 'paper-skill:review_compiled_paper']);
    await v.post('/api/workflow/disabled-tools', { skill: 'paper-skill', tools: ['write_paper_iterative'] });
    expect((await v.get('/api/workflow')).body.workflow.disabled_tools).toEqual(['run_bash', 'paper-skill:write_paper_iterative']);
  });

  test('the ARI web UI\'s bodies: the whole disabled_tools list, and skills with their phases', async () => {
    const { v } = await withCheckpoint('disabled_tools: [run_bash]\n');
    const tools = await v.post('/api/workflow/disabled-tools', { disabled_tools: ['web_search', 'paper-skill:compile_paper'] });
    expect(tools.status).toBe(200);
    expect((await v.get('/api/workflow')).body.workflow.disabled_tools).toEqual(['web_search', 'paper-skill:compile_paper']);
    const skills = await v.post('/api/workflow/skills', { skills: [{ name: 'web-skill', phase: 'none' }, { name: 'paper-skill', phase: ['paper'] }] });
    expect(skills.status).toBe(200);
    const byName = (n: string) => skills.body.workflow.skills.find((s: { name: string }) => s.name === n);
    expect(byName('web-skill').phase).toBe('none');
    expect(byName('paper-skill').phase).toEqual(['paper']);
    expect(byName('idea-skill').phase).toBe('bfts');
  });

  test('an unknown skill is a 404, a bad body a 400, and the copy is unchanged', async () => {
    const original = 'llm: {model: kept}\n';
    const { v, copy } = await withCheckpoint(original);
    const cases: [string, unknown, number, string][] = [
      ['/api/workflow/skills', { name: 'ghost-skill', enabled: false }, 404, "unknown skill 'ghost-skill'"],
      ['/api/workflow/disabled-tools', { skill: 'ghost-skill', tools: [] }, 404, "unknown skill 'ghost-skill'"],
      ['/api/workflow/skills', { name: 'web-skill', enabled: 'no' }, 400, 'enabled'],
      ['/api/workflow/disabled-tools', { skill: 'web-skill', tools: 'search' }, 400, 'tools'],
      ['/api/workflow/disabled-tools', { skill: 'web-skill', tools: ['../x'] }, 400, 'is not a tool name'],
      ['/api/workflow/disabled-tools', { disabled_tools: ['ghost-skill:x'] }, 404, "unknown skill 'ghost-skill'"],
      ['/api/workflow/disabled-tools', { disabled_tools: ['a b'] }, 400, 'is not a tool name'],
      ['/api/workflow/skills', { skills: [{ name: 'ghost-skill', phase: 'bfts' }] }, 404, "unknown skill 'ghost-skill'"],
      ['/api/workflow/skills', { skills: [{ name: 'web-skill', phase: 'sometimes' }] }, 400, 'phase'],
      ['/api/workflow', { pipeline: [{ skill: 'paper-skill' }] }, 400, 'pipeline[0] is not a stage entry'],
      ['/api/workflow', { pipeline: 'write_paper' }, 400, 'pipeline'],
    ];
    for (const [path, body, status, message] of cases) {
      const res = await v.post(path, body);
      expect([path, res.status, res.body.error]).toEqual([path, status, expect.stringContaining(message)]);
    }
    expect(readFileSync(copy, 'utf8')).toBe(original);
  });
});

describe('every workflow edit goes to the checkpoint copy', () => {
  test('flow, skills and disabled-tools leave the project file and the bundled default as they were', async () => {
    const projectFile = join(project, 'workflow.yaml');
    const projectText = 'llm: {model: project-model}\n';
    writeFileSync(projectFile, projectText);
    const { v, copy } = await withCheckpoint('llm: {model: run-model}\n');
    const before = (await v.get('/api/workflow/default')).body;
    const flow = (await v.get('/api/workflow/flow')).body;
    const edits: [string, unknown][] = [
      ['/api/workflow/flow', { nodes: flow.nodes.map((n: { id: string }) => ({ id: n.id })), edges: flow.edges }],
      ['/api/workflow/skills', { name: 'web-skill', enabled: false }],
      ['/api/workflow/disabled-tools', { skill: 'paper-skill', tools: ['compile_paper'] }],
    ];
    for (const [path, body] of edits) expect([path, (await v.post(path, body)).status]).toEqual([path, 200]);
    expect(readFileSync(projectFile, 'utf8')).toBe(projectText);
    expect((await v.get('/api/workflow/default')).body).toEqual(before);
    const copyText = readFileSync(copy, 'utf8');
    expect(copyText).toContain('run-model');
    expect(copyText).toContain('paper-skill:compile_paper');
  });

  test('malformed JSON on any workflow write is a 400 and the copy is unchanged', async () => {
    const original = 'llm: {model: kept}\n';
    const { v, copy } = await withCheckpoint(original);
    for (const path of ['/api/workflow', '/api/workflow/flow', '/api/workflow/skills', '/api/workflow/disabled-tools']) {
      const res = await v.req(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name": ' });
      expect([path, res.status]).toEqual([path, 400]);
      expect(((await res.json()) as { error: string }).error).toContain('malformed request body');
    }
    expect(readFileSync(copy, 'utf8')).toBe(original);
  });
});
