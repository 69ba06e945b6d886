import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Document, isMap, parseDocument, stringify } from 'yaml';
import type { Workflow } from '../../schema/workflow.ts';
import { writeFileAtomic } from '../atomic.ts';
import { InputError, TooLargeError } from '../errors.ts';
import type { Env } from './env-vars.ts';
import { maskSecretValues } from './secrets.ts';
import { BUNDLED, BUNDLED_WORKFLOW_TEXT, type LoadedWorkflow, parseWorkflow, type WorkflowSource } from './workflow.ts';

/** Far above any real workflow; a bigger text is a mistake, not a workflow. */
export const MAX_WORKFLOW_BYTES = 1024 * 1024;

export type WorkflowView = { path: string; source: WorkflowSource; workflow: Workflow; yaml: string };

/**
 * A loaded workflow as the dashboard shows it: the parsed object and the file's text. Values
 * expanded from secret variables go back to their `${NAME}` reference.
 */
export function workflowView(loaded: LoadedWorkflow, env: Env): WorkflowView {
  const yaml = loaded.path === BUNDLED ? BUNDLED_WORKFLOW_TEXT : readFileSync(loaded.path, 'utf8');
  return { path: loaded.path, source: loaded.source, workflow: maskSecretValues(loaded.workflow, env), yaml };
}

/** The workflow copy of a checkpoint, which the dashboard edits; the bundled default is never written. */
function checkpointWorkflowPath(checkpointDir: string): string {
  return join(checkpointDir, 'workflow.yaml');
}

/** Check a workflow text the way a run would read it, then write it as the checkpoint's copy. */
export function saveCheckpointWorkflow(checkpointDir: string, text: string, env: Env): void {
  const size = Buffer.byteLength(text);
  if (size > MAX_WORKFLOW_BYTES) throw new TooLargeError(`the workflow is ${size} bytes; the limit is ${MAX_WORKFLOW_BYTES}`);
  const path = checkpointWorkflowPath(checkpointDir);
  parseWorkflow(text, path, env);
  writeFileAtomic(path, text);
}

/** The text to save from a request: YAML as given, or a workflow object written as YAML. */
export function workflowTextOf(body: { yaml?: string; workflow?: Record<string, unknown> }): string {
  if ((body.yaml === undefined) === (body.workflow === undefined)) throw new InputError('send exactly one of yaml (the file text) or workflow (an object)');
  return body.yaml ?? stringify(body.workflow, { lineWidth: 0 });
}

/**
 * Edit the checkpoint's workflow copy as a YAML document, so comments and the rest of the file
 * stay as they are; without a copy the bundled text is the starting point. `edit` gets the
 * document and the effective workflow it stands for; the result is checked before it is written.
 */
export function editCheckpointWorkflow(checkpointDir: string, env: Env, edit: (doc: Document, current: Workflow) => void): void {
  const path = checkpointWorkflowPath(checkpointDir);
  const text = existsSync(path) ? readFileSync(path, 'utf8') : BUNDLED_WORKFLOW_TEXT;
  const current = parseWorkflow(text, path, env);
  const doc: Document = parseDocument(text);
  if (doc.contents === null) doc.contents = doc.createNode({});
  if (!isMap(doc.contents)) throw new InputError(`${path} must be a mapping of keys`, 'fix it with POST /api/workflow');
  edit(doc, current);
  saveCheckpointWorkflow(checkpointDir, doc.toString({ lineWidth: 0 }), env);
}

/**
 * Make the document hold `key` itself. A file that leaves a list to the bundled default gets a
 * copy of the default's list (its text, not expanded values), so that editing it changes the file.
 */
export function ownKey(doc: Document, key: string): void {
  if (doc.has(key)) return;
  const bundled = parseDocument(BUNDLED_WORKFLOW_TEXT).get(key, true);
  doc.set(key, bundled ?? doc.createNode([]));
}
