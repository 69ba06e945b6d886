// What the workflow as configured will use: it decides whether a missing component fails the report.
import type { Config } from '../core/config/config.ts';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { publishDryRun } from '../ear/backends/index.ts';
import { publishRequired } from '../ear/pipeline-gates.ts';
import { DEFAULT_PUBLISH_YAML, PUBLISH_FILE, parsePublishYaml } from '../ear/publish-config.ts';
import { MODEL_ROLES, type ModelRole } from '../llm/route.ts';
import { findVenue, type Venue } from '../paper/venues.ts';
import { containerSettings } from '../sandbox/container-info.ts';
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

/**
 * The registry must answer only when a failed publish fails the run: an enabled publish stage
 * sends to an svc registry, not as a dry run (its `dry_run` input, SVC_PUBLISH_DRYRUN), and
 * publish.yaml says `required: true`: the checkpoint's (SVC_CHECKPOINT_DIR), else the default
 * a new run is given.
 */
export function registryNeeded(wf: Workflow, env: Env): boolean {
  const sends = enabled(wf).some((s) => s.tool === 'publish_ear' && (s.inputs?.backend ?? 'svc-registry') === 'svc-registry' && !publishDryRun(env, String(s.inputs?.dry_run) === 'true'));
  if (!sends) return false;
  const checkpoint = envValue(env, 'SVC_CHECKPOINT_DIR');
  return checkpoint !== null ? publishRequired(checkpoint) : parsePublishYaml(DEFAULT_PUBLISH_YAML, PUBLISH_FILE)?.required === true;
}

/** Node commands run in a container: an image is configured and the mode is not none. */
export function containersUsed(cfg: Config): boolean {
  const settings = containerSettings(cfg);
  return settings.image !== null && settings.mode !== 'none';
}

/** pdftotext reads papers in the paper and reproduction stages. */
export const pdftotextNeeded = (wf: Workflow): boolean => paperEnabled(wf) || reproductionEnabled(wf);

/** Some role the workflow needs has a model. */
export const modelsNeeded = (wf: Workflow): boolean => MODEL_ROLES.some((r) => roleNeeded(r, wf));

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
