import { expect, test } from 'bun:test';
import { resolve } from 'node:path';

const SRC = resolve(import.meta.dir, '../../../src');

// In a fresh process, so that no other test has loaded a skill already: list the tools of every
// built-in skill the way the run and skills-list do, then name the skill modules loaded.
const LIST_AND_REPORT = `
const { listSkills } = await import('${SRC}/core/config/skills.ts');
const { bundledWorkflow } = await import('${SRC}/core/config/workflow.ts');
const { describeSkills } = await import('${SRC}/mcp/catalogue.ts');
const { SkillPool } = await import('${SRC}/mcp/pool.ts');
const entries = listSkills(bundledWorkflow(), '/nonexistent');
const described = await describeSkills(entries, [], {}, { startExternal: false });
const pool = new SkillPool({ skills: entries.filter((e) => e.builtin), env: {} });
const tools = await pool.tools();
console.log(JSON.stringify({
  described: described.filter((s) => s.builtin && s.tool_count > 0).length,
  tools: tools.length,
  running: await pool.running(),
  loaded: Object.keys(require.cache).filter((m) => m.startsWith('${SRC}/skills/')),
}));
`;

test('listing the tools of the built-in skills loads no skill code and starts no process', () => {
  const proc = Bun.spawnSync([process.execPath, '-e', LIST_AND_REPORT], { stderr: 'pipe' });
  expect(proc.stderr.toString()).toBe('');
  const report = JSON.parse(proc.stdout.toString());
  expect(report.described).toBeGreaterThan(5);
  expect(report.tools).toBeGreaterThan(20);
  expect(report.running).toEqual({});
  expect(report.loaded).toEqual([]);
});
