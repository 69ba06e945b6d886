import { defineCommand } from 'citty';
import { loadConfig } from '../core/config/config.ts';
import { listSkills, type SkillEntry } from '../core/config/skills.ts';
import { print, printJson, table } from './output.ts';

export default defineCommand({
  meta: { description: 'List the skills of the workflow with their phases and where they come from' },
  args: {
    config: { type: 'string', description: 'workflow file (default: bundled)' },
    json: { type: 'boolean', description: 'print as JSON' },
  },
  run({ args }) {
    const cfg = loadConfig({ configPath: args.config });
    const skills = listSkills(cfg.workflow.workflow, cfg.projectRoot);
    if (args.json) {
      printJson(skills);
      return;
    }
    print(`workflow: ${cfg.workflow.path}\n`);
    print(
      table(
        ['SKILL', 'PHASES', 'PATH'],
        skills.map((s) => [s.name, s.phases.join(','), where(s)]),
      ),
    );
  },
});

function where(s: SkillEntry): string {
  if (s.builtin) return s.found ? 'built in' : 'built in, not in this version yet';
  return s.found ? s.path : `${s.path} (missing)`;
}
