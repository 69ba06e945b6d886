import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { writeFileAtomic } from '../core/atomic.ts';
import type { LoadedWorkflow } from '../core/config/workflow.ts';
import { BUNDLED_PROMPTS } from '../prompts/bundled.ts';

/** The workflow keys that may name a template file, and where the checkpoint keeps its copy. */
const TEMPLATE_KEYS = [
  { key: 'select_prompt', copy: 'prompts/bfts_select_prompt.md' },
  { key: 'expand_select_prompt', copy: 'prompts/bfts_expand_select_prompt.md' },
] as const;

/** What a run's checkpoint gets of its --config file: the workflow text, and the template files it names. */
export type WorkflowCopy = { text: string; templates: { source: string; copy: string }[] };

/**
 * The checkpoint's workflow copy, from the --config file it is run with, without writing anything.
 * A prompt template the workflow names by file path is copied into the checkpoint and the copy
 * names it there: a path relative to the config file means nothing beside the checkpoint's
 * workflow.yaml, and a resume must select with the template the run started with. Comments are
 * kept; without a template file the text is the config file's, byte for byte.
 */
export function workflowCopy(loaded: LoadedWorkflow): WorkflowCopy {
  const text = readFileSync(loaded.path, 'utf8');
  const doc = parseDocument(text);
  const templates: WorkflowCopy['templates'] = [];
  for (const { key, copy } of TEMPLATE_KEYS) {
    // the checked, env-expanded value; a value that is not bundled can only come from this file
    const value = loaded.workflow.bfts[key];
    if (Object.hasOwn(BUNDLED_PROMPTS, value) || !doc.hasIn(['bfts', key])) continue;
    templates.push({ source: resolve(dirname(loaded.path), value), copy });
    doc.setIn(['bfts', key], copy);
  }
  return { text: templates.length > 0 ? doc.toString() : text, templates };
}

/** Writes the template copies into the checkpoint `dir`; returns the workflow text to save beside them. */
export function writeWorkflowCopy(copy: WorkflowCopy, dir: string): string {
  for (const t of copy.templates) writeFileAtomic(join(dir, t.copy), readFileSync(t.source, 'utf8'));
  return copy.text;
}

/** The checkpoint's workflow text, its template copies written into `dir`. */
export function checkpointWorkflowText(loaded: LoadedWorkflow, dir: string): string {
  return writeWorkflowCopy(workflowCopy(loaded), dir);
}
