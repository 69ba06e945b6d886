import { readFileSync } from 'node:fs';
import { statOrNull } from '../core/paths.ts';
import { dependsOn } from '../core/config/workflow.ts';
import type { Stage, Workflow } from '../schema/workflow.ts';

/** A stage of the post-search pipeline, as it will run: its skill's full name and its dependencies as a list. */
export type PlannedStage = Stage & { skillName: string; deps: string[] };

/**
 * The enabled stages of the workflow's `pipeline`, in file order: the workflow loader has checked
 * that each depends only on stages above it, and that a name is enabled at most once (ear_publish
 * has two entries, one of them off).
 */
export function pipelineStages(wf: Workflow): PlannedStage[] {
  return wf.pipeline.filter((s) => s.enabled !== false).map((s) => ({ ...s, skillName: skillName(s.skill ?? ''), deps: dependsOn(s) }));
}

/** `foo` is read as `foo-skill`, the schema's shorthand. */
export function skillName(skill: string): string {
  return skill === '' || skill.endsWith('-skill') ? skill : `${skill}-skill`;
}

/**
 * A stage output that lets the stage be skipped: the file exists and is not empty, and a JSON one
 * is an object without a top-level `error` key.
 */
export function usableOutput(path: string): boolean {
  const st = statOrNull(path);
  if (!st?.isFile() || st.size === 0) return false;
  if (!path.endsWith('.json')) return true;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) && !('error' in v);
  } catch {
    return false;
  }
}
