import { RunSupervisor } from '../../run/supervisor.ts';
import type { SkillDef } from '../../mcp/tool.ts';
import { orchestratorTools } from './tools.ts';

/** One skill process, one supervisor: get_status reports the exit codes of the runs it started. */
const orchestratorSkill: SkillDef = {
  name: 'orchestrator-skill',
  description: 'Start research runs and sub-experiments, and follow them: status, runs, children, paper. Also served over plain HTTP JSON (svc skill serve orchestrator-skill --http).',
  // a tool for people and other agents, not for the search's own agent
  phases: ['none'],
  env: ['SVC_WORKSPACE', 'SVC_ORCHESTRATOR_PORT', 'SVC_MAX_RECURSION_DEPTH'],
  usesModel: false,
  tools: orchestratorTools({ supervisor: new RunSupervisor() }),
};

export default orchestratorSkill;
