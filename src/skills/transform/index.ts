import type { SkillDef } from '../tool.ts';
import { curateEar } from './curate-ear.ts';

const transformSkill: SkillDef = {
  name: 'transform-skill',
  description: "Turn a run's results into publishable artifacts: curate the artifact bundle (ear/ into ear_published/ with manifest.lock).",
  phases: ['paper'],
  env: ['SVC_CHECKPOINT_DIR'],
  usesModel: false,
  tools: [curateEar],
};

export default transformSkill;
