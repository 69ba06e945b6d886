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

/**
 * The text of the checkpoint's workflow copy, from the --config file it was run with. A prompt
 * template the workflow names by file path is copied into the checkpoint and the copy names it
 * there: a path relative to the config file means nothing beside the checkpoint's workflow.yaml,
 * and a resume must select with the template the run started with. Comments are kept; without a
 * template file the text is the config file's, byte for byte.
 */
export function checkpointWorkflowText(loaded: LoadedWorkflow, dir: string): string {
  const text = readFileSync(loaded.path, 'utf8');
  const doc = parseDocument(text);
  let changed = false;
  for (const { key, copy } of TEMPLATE_KEYS) {
    // the checked, env-expanded value; a value that is not bundled can only come from this file
    const value = loaded.workflow.bfts[key];
    if (Object.hasOwn(BUNDLED_PROMPTS, value) || !doc.hasIn(['bfts', key])) continue;
    writeFileAtomic(join(dir, copy), readFileSync(resolve(dirname(loaded.path), value), 'utf8'));
    doc.setIn(['bfts', key], copy);
    changed = true;
  }
  return changed ? doc.toString() : text;
}
