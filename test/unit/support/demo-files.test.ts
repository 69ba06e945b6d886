import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../../src/core/config/config.ts';
import { mentionedFileNames } from '../../../src/core/config/experiment-detail.ts';
import { modelFor } from '../../../src/llm/route.ts';
import { metricSpec } from '../../../src/skills/evaluator/make-metric-spec.ts';
import { DEMO_EXPERIMENT, DEMO_MODEL, DEMO_WORKFLOW } from '../../../scripts/record-demo.ts';
import { variantOf } from '../../support/demo-program.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

// The demo's files as the run reads them: what they set decides whether a replay asks what the recording asked.

describe('examples/demo', () => {
  test('the experiment names its metric, lower is better, and no setting the scripted researcher would read as a direction', () => {
    const text = readFileSync(DEMO_EXPERIMENT, 'utf8');
    expect(metricSpec(text)).toMatchObject({ metric_keyword: 'comparisons', higher_is_better: false, min_expected_metric: 0 });
    expect(variantOf(text)).toMatchObject({ algorithm: 'insertion', seed: 42 });
    // a file it named beside it would be copied into every node's work directory
    expect(mentionedFileNames(text)).toEqual([]);
  });

  test('the workflow: five nodes, four at a time, locally, no container unless one is named, no lineage, no root choice, no paper search', () => {
    const home = tempDir('svc-demo-cfg-');
    try {
      const replay = loadConfig({ cwd: home, env: { HOME: home, SVC_BACKEND: 'replay' }, configPath: DEMO_WORKFLOW });
      const wf = replay.workflow.workflow;
      expect(wf.bfts).toMatchObject({ max_nodes: 5, parallel: 4, max_depth: 3 });
      expect(wf.resources.executor).toBe('local');
      // auto with no image: no container, until SVC_CONTAINER_IMAGE names one
      expect(wf.container).toMatchObject({ mode: 'auto', image: '' });
      expect(wf.lineage_decision.mode).toBe('off');
      expect(wf.root_idea_selection.enabled).toBe(false);
      expect(wf.retrieval).toEqual({ backend: 'scholar_b', endpoint: 'http://127.0.0.1:9', library: 'library.bib' });
      // a replay without SVC_MODEL asks the recorded model for every role the search uses
      for (const role of ['idea', 'bfts', 'eval'] as const) expect(modelFor(role, replay).model).toBe(DEMO_MODEL);
      const recording = loadConfig({ cwd: home, env: { HOME: home, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: 'http://127.0.0.1:1/v1', SVC_MODEL: DEMO_MODEL }, configPath: DEMO_WORKFLOW });
      for (const role of ['idea', 'bfts', 'eval'] as const) expect(modelFor(role, recording).model).toBe(DEMO_MODEL);
    } finally {
      removeDir(home);
    }
  });
});
