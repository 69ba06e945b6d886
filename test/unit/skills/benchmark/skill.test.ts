import { expect, test } from 'bun:test';
import { Kind } from '@sinclair/typebox';
import { checkArguments } from '../../../../src/mcp/arguments.ts';
import benchmarkSkill from '../../../../src/skills/benchmark/index.ts';

test('benchmark-skill serves the three tools of the catalogue in the bfts phase, without a model', () => {
  expect(benchmarkSkill).toMatchObject({ name: 'benchmark-skill', phases: ['bfts'], usesModel: false, env: ['SVC_WORK_DIR'] });
  expect(benchmarkSkill.tools.map((t) => t.name)).toEqual(['analyze_results', 'plot', 'statistical_test']);
});

test('every tool has a description and an object schema naming the catalogue arguments', () => {
  const expected: Record<string, string[]> = {
    analyze_results: ['result_path', 'metrics'],
    plot: ['data', 'plot_type', 'output_path', 'title', 'xlabel', 'ylabel'],
    statistical_test: ['data_a', 'data_b', 'test'],
  };
  for (const tool of benchmarkSkill.tools) {
    expect(tool.description.length).toBeGreaterThan(80);
    expect(tool.params[Kind]).toBe('Object');
    expect(Object.keys(tool.params.properties)).toEqual(expect.arrayContaining(expected[tool.name] as string[]));
  }
});

test('a misspelt argument is refused, naming it, rather than ignored', () => {
  const given: Record<string, Record<string, unknown>> = {
    analyze_results: { result_path: 'r.json', metric: ['acc'] },
    plot: { data: { x: [1], y: [1] }, plot_type: 'line', output_path: 'f', x_label: 'time' },
    statistical_test: { data_a: [1, 2], data_b: [3, 4], tset: 'wilcoxon' },
  };
  for (const tool of benchmarkSkill.tools) {
    const args = given[tool.name] ?? {};
    const extra = Object.keys(args).at(-1);
    expect(() => checkArguments(tool.params, tool.name, args)).toThrow(`${tool.name}: unknown argument '${extra}' (arguments: ${Object.keys(tool.params.properties).join(', ')})`);
  }
});
