// What the workflow as configured will use: it decides whether a missing component fails the report.
import type { ModelRole } from '../llm/route.ts';
import { findVenue, type Venue } from '../paper/venues.ts';
import type { Workflow } from '../schema/workflow.ts';

const enabled = (wf: Workflow) => wf.pipeline.filter((s) => s.enabled !== false);

/** Any enabled post-search stage served by one of `skills`. */
export function usesSkill(wf: Workflow, ...skills: string[]): boolean {
  return enabled(wf).some((s) => skills.includes(s.skill ?? ''));
}

/** The paper stages (write, review, render) are enabled: LaTeX is needed. */
export const paperEnabled = (wf: Workflow): boolean => usesSkill(wf, 'paper-skill');

/** The reproduction stages are enabled: the replication models are needed. */
export const reproductionEnabled = (wf: Workflow): boolean => enabled(wf).some((s) => /^ors_/.test(s.stage));

/** The venues the enabled paper stages write for (their `venue` input), arxiv when none names one. */
export function venuesUsed(wf: Workflow): Venue[] {
  const ids = new Set(enabled(wf).filter((s) => s.skill === 'paper-skill' && typeof s.inputs?.venue === 'string').map((s) => String(s.inputs?.venue)));
  if (ids.size === 0) ids.add('arxiv');
  return [...ids].map(findVenue);
}

/** An enabled publish stage sends the bundle to an svc registry. */
export function registryPublishEnabled(wf: Workflow): boolean {
  return enabled(wf).some((s) => s.tool === 'publish_ear' && (s.inputs?.backend ?? 'svc-registry') === 'svc-registry');
}

/**
 * Whether a role's model must answer for the workflow to run. The lineage judge degrades to
 * continue when it fails, so it is never needed; the others follow their stages.
 */
export function roleNeeded(role: ModelRole, wf: Workflow): boolean {
  switch (role) {
    case 'lineage':
      return false;
    case 'root_select':
      return wf.root_idea_selection.enabled;
    case 'rubric_gen':
    case 'rubric_audit':
    case 'replicate':
    case 'judge':
      return reproductionEnabled(wf);
    case 'vlm':
      return usesSkill(wf, 'vlm-skill');
    case 'paper':
      return paperEnabled(wf);
    default:
      return true;
  }
}
