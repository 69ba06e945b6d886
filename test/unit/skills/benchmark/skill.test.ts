import { expect, test } from 'bun:test';
import { Kind } from '@sinclair/typebox';
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
