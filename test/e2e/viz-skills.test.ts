import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let viz: Viz;
beforeEach(async () => {
  dir = tempDir();
  const root = join(dir, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
  writeCheckpoint(root);
  viz = await startViz([], { cwd: dir, env: { SVC_ROOT: dir } });
});
afterEach(async () => {
  await viz.stop();
  removeDir(dir);
});

describe('skills and tools', () => {
  test('GET /api/skills: every workflow skill with its tool count, phases and whether this version has it', async () => {
    const { status, body } = await viz.get('/api/skills');
    expect(status).toBe(200);
    expect(body.skills).toHaveLength(13);
    const byName = Object.fromEntries(body.skills.map((s: { name: string }) => [s.name, s]));
    expect(byName['coding-skill']).toMatchObject({ tool_count: 5, phases: ['bfts', 'reproduce'], builtin: true, found: true, enabled: true, uses_model: false, problem: null });
    expect(byName['benchmark-skill'].tool_count).toBe(3);
    expect(byName['paper-skill']).toMatchObject({ tool_count: 15, uses_model: true, phases: ['paper'], builtin: true, found: true, problem: null });
    expect(byName['plot-skill']).toMatchObject({ tool_count: 1, phases: ['paper'], builtin: true, found: true, problem: null });
    expect(byName['replicate-skill']).toMatchObject({ tool_count: 3, uses_model: true, phases: ['paper'], builtin: true, found: true, problem: null });
    expect(byName['paper-re-skill']).toMatchObject({ tool_count: 4, phases: ['paper'], uses_model: true, builtin: true, found: true, problem: null });
    expect(byName['coding-skill'].tools).toBeUndefined();
  });

  test('GET /api/skill/<name>: its tools with their schemas and the variables it reads; an unknown name is 404', async () => {
    const { body } = await viz.get('/api/skill/coding-skill');
    expect(body.env).toEqual(['SVC_WORK_DIR', 'SVC_CHECKPOINT_DIR']);
    expect(body.tools.map((t: { name: string }) => t.name)).toEqual(['write_code', 'run_code', 'run_bash', 'read_file', 'emit_results']);
    expect(body.tools[3]).toMatchObject({ name: 'read_file', disabled: false, input_schema: { type: 'object', required: ['path'] } });
    expect(await viz.get('/api/skill/nope-skill')).toEqual({ status: 404, body: { error: "unknown skill 'nope-skill' (see GET /api/skills)" } });
    expect((await viz.get('/api/skill/..%2F..%2Fetc')).status).toBe(404);
  });

  test('GET /api/tools: the combined catalogue follows the workflow switches', async () => {
    const before = (await viz.get('/api/tools')).body.tools;
    expect(before).toHaveLength(76);
    expect(before.find((t: { name: string }) => t.name === 'collect_references_iterative')).toMatchObject({ skill: 'web-skill', phases: ['paper', 'reproduce'], enabled: true });
    expect(before.find((t: { name: string }) => t.name === 'curate_ear')).toMatchObject({ skill: 'transform-skill', phases: ['paper'], enabled: true });
    expect(before.find((t: { name: string }) => t.name === 'plot')).toMatchObject({ skill: 'benchmark-skill', phases: ['bfts'], enabled: true, disabled: false });
    expect((await viz.post('/api/workflow/disabled-tools', { skill: 'benchmark-skill', tools: ['plot'] })).status).toBe(200);
    expect((await viz.post('/api/workflow/skills', { name: 'coding-skill', enabled: false })).status).toBe(200);
    const after = (await viz.get('/api/tools')).body.tools;
    expect(after.find((t: { name: string }) => t.name === 'plot')).toMatchObject({ enabled: false, disabled: true });
    expect(after.find((t: { name: string }) => t.name === 'run_bash')).toMatchObject({ enabled: false, phases: ['none'] });
    expect(after.find((t: { name: string }) => t.name === 'statistical_test')).toMatchObject({ enabled: true });
  });

  test('an external skill is named but never started by the dashboard: any page may call it', async () => {
    const script = join(dir, 'external.sh');
    const pidFile = join(dir, 'external.pid');
    writeFileSync(script, `#!/bin/sh\necho $$ >> ${pidFile}\nexec ${SVC} skill serve coding-skill\n`, { mode: 0o755 });
    const { body } = await viz.get('/api/workflow');
    const workflow = { ...body.workflow, skills: [...body.workflow.skills, { name: 'external-skill', path: script, phase: 'bfts' }] };
    expect((await viz.post('/api/workflow', { workflow })).status).toBe(200);
    const listed = await viz.get('/api/skill/external-skill');
    expect(listed.body).toMatchObject({ builtin: false, path: script, tool_count: null, tools: [], problem: 'external server: svc skills-list starts it to list its tools' });
    expect((await viz.get('/api/tools')).body.tools.some((t: { skill: string }) => t.skill === 'external-skill')).toBe(false);
    expect(existsSync(pidFile)).toBe(false);
  });
});
