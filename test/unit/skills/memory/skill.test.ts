import { expect, test } from 'bun:test';
import { Kind } from '@sinclair/typebox';
import { envVar } from '../../../../src/core/config/env-vars.ts';
import { listing } from '../../../../src/mcp/serve.ts';
import memorySkill from '../../../../src/skills/memory/index.ts';
import { callContext, CURRENT_NODE_META, NODE_EXEC_META } from '../../../../src/mcp/call-env.ts';

test('memory-skill serves the fourteen tools of the catalogue in the bfts phase, without a model', () => {
  expect(memorySkill).toMatchObject({ name: 'memory-skill', phases: ['bfts'], usesModel: false });
  expect(memorySkill.tools.map((t) => t.name)).toEqual([
    'add_memory',
    'search_memory',
    'get_node_memory',
    'clear_node_memory',
    'get_experiment_context',
    'add_experiment_result',
    'add_failure_case',
    'add_procedure_memory',
    'add_reflection',
    'add_reproducibility_event',
    'search_research_memory',
    'get_verified_context',
    'audit_memory',
    'consolidate_node_memory',
  ]);
  for (const name of memorySkill.env) expect([name, envVar(name)?.name]).toEqual([name, name]);
});

test('the catalogue arguments, in its order, with its defaults; nothing else is required', () => {
  const catalogue: Record<string, { args: string[]; required: string[] }> = {
    add_memory: { args: ['node_id', 'text', 'metadata'], required: ['node_id', 'text'] },
    search_memory: { args: ['query', 'ancestor_ids', 'limit'], required: ['query', 'ancestor_ids'] },
    get_node_memory: { args: ['node_id'], required: ['node_id'] },
    clear_node_memory: { args: ['node_id'], required: ['node_id'] },
    get_experiment_context: { args: [], required: [] },
    search_research_memory: { args: ['query', 'ancestor_ids', 'kinds', 'require_artifacts', 'limit'], required: ['query', 'ancestor_ids'] },
    get_verified_context: { args: ['ancestor_ids', 'purpose', 'limit'], required: ['ancestor_ids'] },
    audit_memory: { args: ['experiments_root', 'run_id'], required: ['experiments_root'] },
    consolidate_node_memory: { args: ['node_id', 'node_report', 'work_dir', 'run_id'], required: ['node_id', 'node_report', 'work_dir'] },
  };
  for (const tool of memorySkill.tools) {
    expect(tool.description.length).toBeGreaterThan(80);
    expect(tool.params[Kind]).toBe('Object');
    const listed = listing(tool).inputSchema as { properties: Record<string, { default?: unknown }>; required?: string[] };
    if (tool.name.startsWith('add_')) expect(listed.required?.[0]).toBe('node_id');
    const expected = catalogue[tool.name];
    if (!expected) continue;
    expect([tool.name, Object.keys(listed.properties)]).toEqual([tool.name, expected.args]);
    expect([tool.name, listed.required ?? []]).toEqual([tool.name, expected.required]);
  }
  const defaults = (name: string) => (listing(memorySkill.tools.find((t) => t.name === name) as any).inputSchema as any).properties;
  expect(defaults('search_memory').limit.default).toBe(5);
  expect(defaults('search_research_memory').limit.default).toBe(5);
  expect(defaults('get_verified_context').purpose.default).toBe('paper');
});

test('a call names its node in _meta; without it the process environment stands', () => {
  const processEnv = { SVC_CHECKPOINT_DIR: '/c', SVC_CURRENT_NODE_ID: 'stale' };
  expect(callContext(processEnv, { [CURRENT_NODE_META]: 'n7', progressToken: 1 })).toEqual({ env: { SVC_CHECKPOINT_DIR: '/c', SVC_CURRENT_NODE_ID: 'n7' } });
  expect(callContext(processEnv, undefined).env).toBe(processEnv);
  expect(callContext(processEnv, { [CURRENT_NODE_META]: 7 }).env).toBe(processEnv);
  expect(processEnv.SVC_CURRENT_NODE_ID).toBe('stale');
});

test("a call carries how its node's commands run; a malformed one is none", () => {
  const container = { runtime: 'docker' as const, binary: '/usr/bin/docker', image: 'busybox:1.36', pull: 'never' as const };
  expect(callContext({}, { [NODE_EXEC_META]: { container } }).exec).toEqual({ container });
  expect(callContext({}, { [NODE_EXEC_META]: {} }).exec).toEqual({});
  for (const bad of [{ container: { ...container, runtime: 'lxc' } }, { container: { ...container, image: 5 } }, 'docker', null]) expect(callContext({}, { [NODE_EXEC_META]: bad }).exec).toBeUndefined();
});
