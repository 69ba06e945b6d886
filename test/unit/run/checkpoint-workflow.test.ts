import { afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadWorkflow } from '../../../src/core/config/workflow.ts';
import { BUNDLED_PROMPTS } from '../../../src/prompts/bundled.ts';
import { checkpointWorkflowText } from '../../../src/run/checkpoint-workflow.ts';
import { resolveRunSettings } from '../../../src/run/settings.ts';
import { loadConfig } from '../../../src/core/config/config.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir('svc-ckpt-wf-');
});
afterEach(() => removeDir(dir));

const SELECT = BUNDLED_PROMPTS['orchestrator/bfts_select'] as string;

test('a template named by a path relative to the config is copied into the checkpoint, and the copy names it there', () => {
  mkdirSync(join(dir, 'cfg', 'tpl'), { recursive: true });
  mkdirSync(join(dir, 'ckpt'));
  writeFileSync(join(dir, 'cfg', 'tpl', 'sel.md'), SELECT);
  const wfText = '# my workflow\nbfts:\n  # my own selector\n  select_prompt: tpl/sel.md\n  max_nodes: 7\n';
  writeFileSync(join(dir, 'cfg', 'w.yaml'), wfText);
  const loaded = loadWorkflow({ configPath: join(dir, 'cfg', 'w.yaml'), env: {} });
  const copy = checkpointWorkflowText(loaded, join(dir, 'ckpt'));
  writeFileSync(join(dir, 'ckpt', 'workflow.yaml'), copy);
  expect(copy).toContain('# my own selector');
  expect(copy).toContain('select_prompt: prompts/bfts_select_prompt.md');
  expect(readFileSync(join(dir, 'ckpt', 'prompts', 'bfts_select_prompt.md'), 'utf8')).toBe(SELECT);
  // the checkpoint alone resolves the template, from anywhere
  const cfg = loadConfig({ env: { SVC_ROOT: dir, HOME: dir }, cwd: '/', checkpointDir: join(dir, 'ckpt') });
  expect(cfg.workflow.source).toBe('checkpoint');
  expect(resolveRunSettings(cfg).selectPrompt).toBe(SELECT);
  expect(resolveRunSettings(cfg).maxNodes).toBe(7);
});

test('bundled template names and a workflow without templates are copied byte for byte', () => {
  mkdirSync(join(dir, 'ckpt'));
  const wfText = 'bfts:\n  select_prompt: orchestrator/bfts_select   # bundled\n  max_nodes: 3\n';
  writeFileSync(join(dir, 'w.yaml'), wfText);
  expect(checkpointWorkflowText(loadWorkflow({ configPath: join(dir, 'w.yaml'), env: {} }), join(dir, 'ckpt'))).toBe(wfText);
  writeFileSync(join(dir, 'w2.yaml'), 'llm:\n  model: m\n');
  expect(checkpointWorkflowText(loadWorkflow({ configPath: join(dir, 'w2.yaml'), env: {} }), join(dir, 'ckpt'))).toBe('llm:\n  model: m\n');
});
