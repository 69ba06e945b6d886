import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { callTool } from '../../../src/mcp/serve.ts';
import { plot } from '../../../src/skills/benchmark/plot.ts';
import { emitResults } from '../../../src/skills/coding/emit-results.ts';
import type { ToolDef } from '../../../src/mcp/tool.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const tools = new Map<string, ToolDef<any>>([emitResults, plot].map((t) => [t.name, t]));
const call = async (name: string, json: string) => {
  const reply = await callTool(tools, name, JSON.parse(json), { signal: new AbortController().signal, env: { SVC_WORK_DIR: dir } });
  return { isError: reply.isError === true, body: JSON.parse((reply.content[0] as { text: string }).text) };
};

test('a __proto__ key anywhere in the arguments is refused, naming where, and nothing is written', async () => {
  const params = await call('emit_results', '{"measurements": {"acc": 0.9}, "params": {"__proto__": {"acc": 5}, "lr": 0.1}}');
  expect(params).toEqual({ isError: true, body: { error: "emit_results: argument 'params.__proto__' uses the key __proto__, which an object cannot hold (rename the key)" } });
  expect(existsSync(join(dir, 'results.json'))).toBe(false);
  const nested = await call('plot', '{"plot_type": "line", "output_path": "f", "data": {"series": {"a": {"x": [1], "y": [1], "__proto__": {}}}}}');
  expect(nested.body.error).toBe("plot: argument 'data.series.a.__proto__' uses the key __proto__, which an object cannot hold (rename the key)");
  expect(existsSync(join(dir, 'f.svg'))).toBe(false);
});

test('constructor and prototype are ordinary keys', async () => {
  const written = await call('emit_results', '{"measurements": {"acc": 0.9}, "params": {"constructor": {"prototype": 1}}}');
  expect(written.isError).toBe(false);
  expect(written.body.written_keys.params).toEqual(['constructor']);
});
