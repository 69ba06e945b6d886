import { Elysia } from 'elysia';
import type { Config } from '../../core/config/config.ts';
import { definedEnv } from '../../core/config/environment.ts';
import { disabledTools, listSkills } from '../../core/config/skills.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { SkillInfo } from '../../mcp/catalogue.ts';
import type { ServerContext } from '../context.ts';

/** The skills of the active workflow and their tools; what a run would be able to call. */
export const skillRoutes = (ctx: ServerContext) => {
  let cache: { cfg: Config; skills: Promise<SkillInfo[]> } | null = null;
  const skills = () => {
    const cfg = ctx.config();
    if (cache?.cfg !== cfg) {
      const wf = cfg.workflow.workflow;
      const [entries, disabled, env] = [listSkills(wf, cfg.projectRoot), disabledTools(wf), definedEnv(ctx.env)];
      // the MCP client and its schema validators load with the first skills request, not with the dashboard
      cache = { cfg, skills: import('../../mcp/catalogue.ts').then((m) => m.describeSkills(entries, disabled, env, { startExternal: false })) };
    }
    return cache.skills;
  };
  return new Elysia({ name: 'skills' })
    .get('/api/skills', async () => ({ skills: (await skills()).map(({ tools: _tools, ...rest }) => rest) }))
    .get('/api/skill/:name', async ({ params }) => {
      const skill = (await skills()).find((s) => s.name === params.name);
      if (!skill) throw new NotFoundError(`unknown skill '${params.name.slice(0, 80)}'`, 'see GET /api/skills');
      return skill;
    })
    .get('/api/tools', async () => ({
      tools: (await skills()).flatMap((s) => s.tools.map((t) => ({ skill: s.name, phases: s.phases, enabled: s.enabled && !t.disabled, ...t }))),
    }));
};
