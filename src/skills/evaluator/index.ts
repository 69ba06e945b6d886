import type { SkillDef } from '../tool.ts';
import { makeMetricSpec } from './make-metric-spec.ts';

const evaluatorSkill: SkillDef = {
  name: 'evaluator-skill',
  description: "Decide the metric a run is judged by and freeze it in the checkpoint's metric contract.",
  phases: ['bfts'],
  env: ['SVC_CHECKPOINT_DIR'],
  // make_metric_spec reads the metric from the experiment text; the model fallback is not built yet
  usesModel: false,
  tools: [makeMetricSpec],
};

export default evaluatorSkill;
