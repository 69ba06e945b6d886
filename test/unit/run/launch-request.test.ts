import { describe, expect, test } from 'bun:test';
import { InputError } from '../../../src/core/errors.ts';
import { parseLaunchRequest } from '../../../src/run/launch-request.ts';
import { parseSubExperimentRequest } from '../../../src/run/sub-experiment-request.ts';

const message = (body: unknown): string => {
  try {
    parseLaunchRequest(body);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('parseLaunchRequest', () => {
  test('a full valid body passes with its values', () => {
    const body = { experiment_md: '# Goal\nfaster matmul', profile: 'hpc' as const, provider: 'openai-compatible', model: 'qwen3', max_nodes: 12, max_depth: 3, workers: 2 };
    expect(parseLaunchRequest(body)).toEqual(body);
  });

  test("the multi-agent idea engine's fields, under the reference dashboard's names, pass with their values", () => {
    const body = { experiment_md: 'x', vir_sci_real: true, vir_sci_k: 2, vir_sci_team_size: 2, vir_sci_n_authors: 4, vir_sci_n_papers: 50 };
    expect(parseLaunchRequest(body)).toEqual(body);
  });

  test('only experiment_md is required', () => {
    expect(parseLaunchRequest({ experiment_md: 'x' })).toEqual({ experiment_md: 'x' });
  });

  test.each([
    [{}, 'experiment_md is required'],
    [{ experiment_md: '' }, 'experiment_md is required'],
    [{ experiment_md: '   \n' }, 'experiment_md is required'],
    [{ experiment_md: 42 }, 'experiment_md is required: a non-empty Markdown string without NUL bytes, got 42'],
    [{ experiment_md: 'a\0b' }, 'NUL'],
    [{ experiment_md: 'x', profile: 'desktop' }, "profile must be one of laptop, hpc, cloud, got 'desktop'"],
    [{ experiment_md: 'x', provider: 'skynet' }, "provider must be one of"],
    [{ experiment_md: 'x', provider: 3 }, 'provider must be one of'],
    [{ experiment_md: 'x', model: '' }, 'model must be'],
    [{ experiment_md: 'x', model: 'a\nb' }, 'model must be'],
    [{ experiment_md: 'x', max_nodes: 0 }, 'max_nodes must be a positive integer'],
    [{ experiment_md: 'x', max_nodes: '5' }, "max_nodes must be a positive integer (at most 100000), got '5'"],
    [{ experiment_md: 'x', max_depth: 1.5 }, 'max_depth must be a positive integer'],
    [{ experiment_md: 'x', workers: -2 }, 'workers must be a positive integer'],
    [{ experiment_md: 'x', workers: null }, 'workers must be a positive integer'],
    [{ experiment_md: 'x', max_nodes: 1e9 }, 'max_nodes must be a positive integer'],
    [{ experiment_md: 'x', parallel: 4 }, "unknown field 'parallel'"],
    [{ experiment_md: 'x', vir_sci_real: 'yes' }, "vir_sci_real must be true or false, got 'yes'"],
    [{ experiment_md: 'x', vir_sci_k: 0 }, 'vir_sci_k must be a whole number from 1 to 20, got 0'],
    [{ experiment_md: 'x', vir_sci_team_size: 9 }, 'vir_sci_team_size must be a whole number from 1 to 8, got 9'],
    [{ experiment_md: 'x', vir_sci_n_authors: 2.5 }, 'vir_sci_n_authors must be a whole number from 1 to 64'],
    [{ experiment_md: 'x', vir_sci_n_papers: 5001 }, 'vir_sci_n_papers must be a whole number from 1 to 5000'],
  ])('%j is refused: %s', (body, expected) => {
    expect(message(body)).toContain(expected);
  });

  test('every bad field is named in one message', () => {
    const m = message({ experiment_md: '', profile: 'x', max_nodes: -1, max_depth: 'deep', workers: 0, colour: 'red', model: 7 });
    for (const field of ['experiment_md', 'profile', 'max_nodes', 'max_depth', 'workers', "unknown field 'colour'", 'model']) expect(m).toContain(field);
  });

  test.each([[null], [[]], ['text'], [5]])('a body that is no object (%j) is refused', (body: unknown) => {
    expect(message(body)).toContain('must be a JSON object');
  });
});

describe('parseSubExperimentRequest', () => {
  test('experiment_md is optional, and parent_run_id and inherit_idea_index are read', () => {
    expect(parseSubExperimentRequest({ parent_run_id: 'r1', inherit_idea_index: 2, max_nodes: 3 })).toEqual({ parent_run_id: 'r1', inherit_idea_index: 2, max_nodes: 3 });
  });

  test('bad lineage fields are named along with bad launch fields', () => {
    let m = '';
    try {
      parseSubExperimentRequest({ parent_run_id: 5, inherit_idea_index: -1, workers: 0, x: 1 });
    } catch (err) {
      m = (err as Error).message;
    }
    for (const f of ['parent_run_id must be a run id, got 5', 'inherit_idea_index must be a whole number of at least 0, got -1', 'workers', "unknown field 'x'"]) expect(m).toContain(f);
  });
});
