import type { SkillDef } from '../tool.ts';
import { makeMetricSpec } from './make-metric-spec.ts';

const evaluatorSkill: SkillDef = {
  name: 'evaluator-skill',
  description: "Decide the metric a run is judged by and freeze it in the checkpoint's metric contract.",
  phases: ['bfts'],
  env: ['SVC_CHECKPOINT_DIR', 'SVC_MODEL_EVAL'],
  // make_metric_spec asks the eval model when the experiment text names no metric
  usesModel: true,
  tools: [makeMetricSpec],
};

export default evaluatorSkill;
