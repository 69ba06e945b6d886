import { existsSync } from 'node:fs';
import { BUILTIN_SKILLS } from '../../schema/tool-manifest.ts';
import type { Phase, Workflow } from '../../schema/workflow.ts';
import { renderTemplate } from './template.ts';

export type SkillEntry = { name: string; phases: Phase[]; path: string; builtin: boolean; found: boolean; enabled: boolean };

/**
 * The workflow's skills with their paths resolved ({{ari_root}} filled in). `found`: the binary has
 * the built-in skill, or the external path exists.
 */
export function listSkills(wf: Workflow, projectRoot: string): SkillEntry[] {
  return wf.skills.map((s) => {
    const phases = Array.isArray(s.phase) ? s.phase : [s.phase];
    const builtin = s.path === 'builtin';
    const path = builtin ? 'builtin' : renderTemplate(s.path, { ari_root: projectRoot });
    return { name: s.name, phases, path, builtin, found: builtin ? BUILTIN_SKILLS.has(s.name) : existsSync(path), enabled: !phases.includes('none') };
  });
}

/**
 * Tools switched off by the workflow: its `disabled_tools` (`<skill>:<tool>` or a bare tool name)
 * and the tool of every search stage that is switched off.
 */
export function disabledTools(wf: Workflow): string[] {
  const fromStages = wf.bfts_pipeline.filter((s) => s.enabled === false && s.tool).map((s) => (s.skill ? `${s.skill}:${s.tool}` : String(s.tool)));
  return [...new Set([...(wf.disabled_tools ?? []), ...fromStages])];
}
