import { describe, expect, test } from 'bun:test';
import { expandEnv } from '../../../../src/core/config/expand-env.ts';
import { renderDeep, renderTemplate, templateVars, unresolvedPlaceholders } from '../../../../src/core/config/template.ts';
import { bundledWorkflow } from '../../../../src/core/config/workflow.ts';

describe('expandEnv', () => {
  test('fills ${VAR} and ${VAR:-default} in nested strings; empty counts as unset', () => {
    const env = { A: 'x', EMPTY: '' };
    expect(expandEnv({ a: '${A}/y', b: ['${MISSING:-d}', '${EMPTY:-e}', '${MISSING}'], n: 3 }, env)).toEqual({ a: 'x/y', b: ['d', 'e', ''], n: 3 });
  });

  test('a value cannot inject structure: it stays one string', () => {
    expect(expandEnv({ k: '${V}' }, { V: 'a\nb: c' })).toEqual({ k: 'a\nb: c' });
  });
});

describe('templates', () => {
  const wf = bundledWorkflow();
  const vars = templateVars({
    checkpointDir: '/ws/checkpoints/r1',
    projectRoot: '/proj',
    workflow: wf,
    stages: { write_paper: { outputs: { file: '/ws/checkpoints/r1/full_paper.tex' } } },
    extra: { keywords: 'cache, blocking', paper_context: 'ctx', vlm_feedback: 'fix fig 2' },
  });

  test('fills every variable of the spec', () => {
    const text =
      '{{ckpt}}|{{checkpoint_dir}}|{{ari_root}}|{{llm.model}}|{{llm.base_url}}|{{resources.cpus}}|{{resources.timeout_minutes}}|{{stages.write_paper.outputs.file}}|{{author_name}}|{{vlm_feedback}}|{{paper_context}}|{{keywords}}';
    expect(renderTemplate(text, vars)).toBe(`/ws/checkpoints/r1|/ws/checkpoints/r1|/proj|qwen3:4b||4|60|/ws/checkpoints/r1/full_paper.tex||fix fig 2|ctx|cache, blocking`);
  });

  test('an object renders as JSON', () => {
    expect(JSON.parse(renderTemplate('{{claim_gate_policy}}', vars)).mode).toBe('warn');
  });

  test('an unknown placeholder is left as written and reported', () => {
    const out = renderTemplate('a {{stages.missing.outputs.file}} b {{ nope }}', vars);
    expect(out).toBe('a {{stages.missing.outputs.file}} b {{ nope }}');
    expect(unresolvedPlaceholders(out)).toEqual(['stages.missing.outputs.file', 'nope']);
  });

  test('renderDeep fills stage inputs of the bundled workflow', () => {
    const stage = wf.pipeline.find((s) => s.stage === 'review_paper');
    const inputs = renderDeep(stage?.inputs, vars) as Record<string, unknown>;
    expect(inputs.tex_path).toBe('/ws/checkpoints/r1/full_paper.tex');
    expect(inputs.pdf_path).toBe('/ws/checkpoints/r1/full_paper.pdf');
    // the counts are left to the settings and the rubric
    expect(inputs.num_reflections).toBeUndefined();
  });
});
