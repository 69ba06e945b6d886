import type { SkillDef } from '../../mcp/tool.ts';
import { curateEar } from './curate-ear.ts';
import { generateEar } from './generate-ear.ts';
import { promoteEar, publishEar } from './publish-ear.ts';
import { nodesToScienceData } from './science-data.ts';

const transformSkill: SkillDef = {
  name: 'transform-skill',
  description:
    "Turn a run's results into publishable artifacts: the typed science data a paper is written from (science_data.json), the artifact bundle (ear/: code, data, results tables, README), its curation (ear_published/ with manifest.lock), publishing and promotion.",
  phases: ['paper'],
  env: ['SVC_CHECKPOINT_DIR', 'SVC_MODEL_PAPER', 'SVC_PUBLISH_DRYRUN', 'SVC_REGISTRY_URL', 'SVC_REGISTRY_TOKEN'],
  usesModel: true,
  tools: [nodesToScienceData, generateEar, curateEar, publishEar, promoteEar],
};

export default transformSkill;
