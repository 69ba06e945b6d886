import type { SkillDef } from '../../mcp/tool.ts';
import { curateEar } from './curate-ear.ts';
import { promoteEar, publishEar } from './publish-ear.ts';

const transformSkill: SkillDef = {
  name: 'transform-skill',
  description: "Turn a run's results into publishable artifacts: curate the artifact bundle (ear/ into ear_published/ with manifest.lock), publish and promote it.",
  phases: ['paper'],
  env: ['SVC_CHECKPOINT_DIR', 'SVC_PUBLISH_DRYRUN', 'SVC_REGISTRY_URL', 'SVC_REGISTRY_TOKEN'],
  usesModel: false,
  tools: [curateEar, publishEar, promoteEar],
};

export default transformSkill;
