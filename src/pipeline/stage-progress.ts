import { isAbsolute } from 'node:path';
import { renderTemplate, templateVars, unresolvedPlaceholders } from '../core/config/template.ts';
import type { Workflow } from '../schema/workflow.ts';
import { statOrNull } from '../core/paths.ts';
import { usableOutput } from './stages.ts';
import { memoByFile } from '../core/file-memo.ts';

/** done: the stage's output is there and usable; pending: not yet; unknown: the stage names no output file. */
export type StageProgress = { stage: string; status: 'done' | 'pending' | 'unknown' };

/**
 * How far a checkpoint's post-search pipeline got, stage by enabled stage, read from the output
 * files the stages leave: the same test a rerun uses to skip a stage, so what shows as done is
 * what a rerun would keep.
 */
export function pipelineProgress(checkpointDir: string, projectRoot: string, wf: Workflow): StageProgress[] {
  const vars = templateVars({ checkpointDir, projectRoot, workflow: wf });
  return wf.pipeline
    .filter((s) => s.enabled !== false)
    .map((s) => {
      const file = s.outputs?.file ? renderTemplate(s.outputs.file, vars) : null;
      // an output named after another stage's is known only inside a run
      if (file === null || unresolvedPlaceholders(file).length > 0 || !isAbsolute(file)) return { stage: s.stage, status: 'unknown' as const };
      return { stage: s.stage, status: usableUnchanged(file) ? ('done' as const) : ('pending' as const) };
    });
}

/** Each output's verdict, kept while the file is unchanged: the dashboard asks on every poll of /state. */
const usableKept = memoByFile(usableOutput, 256);

function usableUnchanged(file: string): boolean {
  return statOrNull(file) !== null && usableKept(file);
}
