import { afterAll, beforeAll, expect, test } from 'bun:test';
import { chmodSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SkillPool } from '../../../../src/mcp/pool.ts';
import { newRun, removeDir, startTestMemory } from './memory-fixture.ts';

let memory: Awaited<ReturnType<typeof startTestMemory>>;
let run: ReturnType<typeof newRun>;
beforeAll(async () => {
  memory = await startTestMemory();
  run = newRun(memory.url);
});
afterAll(async () => {
  removeDir(run.base);
  await memory.stop();
});

/** memory-skill as its own stdio MCP server process, started by the run's tool pool. */
function serverScript(): string {
  const file = join(run.base, 'memory-skill-server');
  const src = resolve(import.meta.dir, '../../../../src');
  writeFileSync(
    file,
    `#!${process.execPath}\nimport { serveSkill } from '${src}/mcp/serve.ts';\nimport skill from '${src}/skills/memory/index.ts';\nawait serveSkill(skill);\nprocess.exit(0);\n`,
  );
  chmodSync(file, 0o755);
  return file;
}

test('through the tool pool and MCP over stdio: write as the current node, search as its child, CoW refusal as {error}', async () => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...(run.env('root') as Record<string, string>) };
  const pool = new SkillPool({ skills: [{ name: 'memory-skill', phases: ['bfts'], path: serverScript(), builtin: false, found: true, enabled: true }], env });
  try {
    expect((await pool.tools('bfts')).map((t) => t.name)).toContain('consolidate_node_memory');
    const added = await pool.call('add_memory', { node_id: 'root', text: 'baseline 100 GFLOPS', metadata: { step: 1 } });
    expect(added).toEqual({ result: { entry_id: expect.any(String), node_id: 'root' } });
    expect(await pool.call('add_memory', { node_id: 'a', text: 'x' })).toEqual({ error: 'node_id does not match current node (CoW violation)' });
    const found = await pool.call('search_memory', { query: 'baseline', ancestor_ids: ['root'] });
    expect(found).toEqual({ result: { results: [{ entry_id: (added as any).result.entry_id, node_id: 'root', text: 'baseline 100 GFLOPS', metadata: { step: 1 }, score: expect.any(Number) }] } });
  } finally {
    await pool.close();
  }
});
