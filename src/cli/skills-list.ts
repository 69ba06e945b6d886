import { defineCommand } from 'citty';
import { loadConfig } from '../core/config/config.ts';
import { definedEnv, loadEnv } from '../core/config/environment.ts';
import { disabledTools, listSkills } from '../core/config/skills.ts';
import { describeSkills, type SkillInfo } from '../mcp/catalogue.ts';
import { print, printJson, table } from './output.ts';

export default defineCommand({
  meta: { description: 'List the skills of the workflow with their tool counts, phases and where they come from' },
  args: {
    config: { type: 'string', description: 'workflow file (default: bundled)' },
    json: { type: 'boolean', description: 'print as JSON, with every tool' },
  },
  async run({ args }) {
    const cfg = loadConfig({ configPath: args.config });
    const wf = cfg.workflow.workflow;
    const skills = await describeSkills(listSkills(wf, cfg.projectRoot), disabledTools(wf), definedEnv(loadEnv()), { startExternal: true });
    if (args.json) {
      printJson(skills);
      return;
    }
    print(`workflow: ${cfg.workflow.path}\n`);
    if (skills.length === 0) {
      print('No skills');
      return;
    }
    print(
      table(
        ['SKILL', 'TOOLS', 'PHASES', 'SOURCE'],
        skills.map((s) => [s.name, s.tool_count ?? '-', s.phases.join(','), where(s)]),
      ),
    );
  },
});

function where(s: SkillInfo): string {
  const source = s.builtin ? 'built in' : s.path;
  return s.problem ? `${source} (${s.problem})` : source;
}
