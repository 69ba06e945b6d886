import { afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadWorkflow } from '../../../src/core/config/workflow.ts';
import { BUNDLED_PROMPTS } from '../../../src/prompts/bundled.ts';
import { checkpointWorkflowText } from '../../../src/run/checkpoint-workflow.ts';
import { resolveRunSettings } from '../../../src/run/settings.ts';
import { loadConfig } from '../../../src/core/config/config.ts';
import { checkLibrary } from '../../../src/ideas/library.ts';
import { libraryPath } from '../../../src/ideas/retrieval-settings.ts';
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

test("the library retrieval.library names is copied into the checkpoint as library.bib, and the copy names it there; a missing one is refused", () => {
  mkdirSync(join(dir, 'cfg', 'refs'), { recursive: true });
  mkdirSync(join(dir, 'ckpt'));
  const bib = '@article{k, title={T\u00e9}, year=2000}\n';
  writeFileSync(join(dir, 'cfg', 'refs', 'mine.bib'), bib);
  writeFileSync(join(dir, 'cfg', 'w.yaml'), 'retrieval:\n  library: refs/mine.bib  # my references\n');
  const copy = checkpointWorkflowText(loadWorkflow({ configPath: join(dir, 'cfg', 'w.yaml'), env: {} }), join(dir, 'ckpt'));
  expect(copy).toBe('retrieval:\n  library: library.bib # my references\n');
  expect(readFileSync(join(dir, 'ckpt', 'library.bib'), 'utf8')).toBe(bib);
  writeFileSync(join(dir, 'ckpt', 'workflow.yaml'), copy);
  const cfg = loadConfig({ env: { SVC_ROOT: dir, HOME: dir }, cwd: '/', checkpointDir: join(dir, 'ckpt') });
  expect(libraryPath(cfg)).toBe(join(dir, 'ckpt', 'library.bib'));
  // named as the copy is: the text stays byte for byte
  writeFileSync(join(dir, 'cfg', 'library.bib'), bib);
  writeFileSync(join(dir, 'cfg', 'w2.yaml'), 'retrieval:\n  library: library.bib   # kept\n');
  expect(checkpointWorkflowText(loadWorkflow({ configPath: join(dir, 'cfg', 'w2.yaml'), env: {} }), join(dir, 'ckpt'))).toBe('retrieval:\n  library: library.bib   # kept\n');
  // an absolute path is copied as well, and the copy named by its checkpoint name
  writeFileSync(join(dir, 'cfg', 'w4.yaml'), `retrieval:\n  library: ${join(dir, 'cfg', 'refs', 'mine.bib')}\n`);
  rmSync(join(dir, 'ckpt', 'library.bib'));
  expect(checkpointWorkflowText(loadWorkflow({ configPath: join(dir, 'cfg', 'w4.yaml'), env: {} }), join(dir, 'ckpt'))).toBe('retrieval:\n  library: library.bib\n');
  expect(readFileSync(join(dir, 'ckpt', 'library.bib'), 'utf8')).toBe(bib);
  writeFileSync(join(dir, 'cfg', 'w3.yaml'), 'retrieval:\n  library: nowhere.bib\n');
  expect(() => checkLibrary(libraryPath(loadConfig({ env: { SVC_ROOT: dir, HOME: dir }, cwd: '/', configPath: join(dir, 'cfg', 'w3.yaml') })) ?? '')).toThrow(/^retrieval\.library: cannot read the library .*cfg\/nowhere\.bib/);
});
