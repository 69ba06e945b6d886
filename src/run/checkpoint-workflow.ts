import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { writeFileAtomic } from '../core/atomic.ts';
import type { LoadedWorkflow } from '../core/config/workflow.ts';
import type { Workflow } from '../schema/workflow.ts';
import { BUNDLED_PROMPTS } from '../prompts/bundled.ts';

/**
 * The workflow keys that may name a file of the researcher's, where the checkpoint keeps its copy,
 * and the values that name none (a bundled template, an empty library).
 */
const FILE_KEYS = [
  { key: ['bfts', 'select_prompt'], value: (w: Workflow) => w.bfts.select_prompt, copy: 'prompts/bfts_select_prompt.md', none: (v: string) => Object.hasOwn(BUNDLED_PROMPTS, v) },
  { key: ['bfts', 'expand_select_prompt'], value: (w: Workflow) => w.bfts.expand_select_prompt, copy: 'prompts/bfts_expand_select_prompt.md', none: (v: string) => Object.hasOwn(BUNDLED_PROMPTS, v) },
  { key: ['retrieval', 'library'], value: (w: Workflow) => w.retrieval.library, copy: 'library.bib', none: (v: string) => v.trim() === '' },
] as const;

/** What a run's checkpoint gets of its --config file: the workflow text, and the files it names. */
export type WorkflowCopy = { text: string; files: { source: string; copy: string }[] };

/**
 * The checkpoint's workflow copy, from the --config file it is run with, without writing anything.
 * A prompt template or a library the workflow names by file path is copied into the checkpoint and
 * the copy names it there: a path relative to the config file means nothing beside the checkpoint's
 * workflow.yaml, and a resume must run with the files the run started with. Comments are kept;
 * where no name changes the text is the config file's, byte for byte.
 */
export function workflowCopy(loaded: LoadedWorkflow): WorkflowCopy {
  const text = readFileSync(loaded.path, 'utf8');
  const doc = parseDocument(text);
  const files: WorkflowCopy['files'] = [];
  let renamed = false;
  for (const { key, value: of, copy, none } of FILE_KEYS) {
    // the checked, env-expanded value; a value that is not the default can only come from this file
    const value = of(loaded.workflow);
    if (none(value) || !doc.hasIn(key)) continue;
    files.push({ source: resolve(dirname(loaded.path), value.trim()), copy });
    if (doc.getIn(key) === copy) continue;
    doc.setIn(key, copy);
    renamed = true;
  }
  return { text: renamed ? doc.toString() : text, files };
}

/** Writes the file copies into the checkpoint `dir`; returns the workflow text to save beside them. */
export function writeWorkflowCopy(copy: WorkflowCopy, dir: string): string {
  for (const f of copy.files) writeFileAtomic(join(dir, f.copy), readFileSync(f.source));
  return copy.text;
}

/** The files a workflow copy names, by those names, as a cassette carries them. */
export function carriedFiles(copy: WorkflowCopy): Record<string, string> {
  return Object.fromEntries(copy.files.map((f) => [f.copy, readFileSync(f.source, 'utf8')]));
}

/** The checkpoint's workflow text, its file copies written into `dir`. */
export function checkpointWorkflowText(loaded: LoadedWorkflow, dir: string): string {
  return writeWorkflowCopy(workflowCopy(loaded), dir);
}
