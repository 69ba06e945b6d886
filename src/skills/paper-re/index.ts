import type { SkillDef } from '../../mcp/tool.ts';
import { buildReproduceShTool } from './build-reproduce.ts';
import { fetchCodeBundleTool } from './fetch-code-bundle.ts';
import { gradeWithJudgeTool } from './grade.ts';
import { runReproduceTool } from './run-reproduce.ts';

const paperReSkill: SkillDef = {
  name: 'paper-re-skill',
  description: "Check that the paper's results reproduce from its published bundle: the bundle fetched and verified into the reproduction's directory, an agent (the replicate model) building its reproduce.sh from the paper and the bundle, that reproduce.sh run in a sandbox (Slurm, docker, apptainer, singularity or this machine) with its log, exit status and wall time recorded, and every leaf of the rubric graded by the judge model, with negative controls.",
  phases: ['paper'],
  env: ['SVC_CHECKPOINT_DIR', 'SVC_MODEL_REPLICATE', 'SVC_MODEL_JUDGE', 'SVC_JUDGE_CONCURRENCY', 'SVC_REPRO_CLONE_POLICY', 'SVC_PHASE1_SANDBOX', 'SVC_PHASE1_DOCKER_IMAGE', 'SVC_PHASE1_APPTAINER_IMAGE', 'SVC_PHASE1_SINGULARITY_IMAGE', 'SVC_PHASE1_ALLOW_FALLBACK', 'SVC_SLURM_PARTITION', 'SLURM_DEFAULT_PARTITION', 'SVC_SLURM_ALLOW_NO_GRES', 'SVC_CLONE_HTTP_TIMEOUT'],
  // build_reproduce_sh's agent is the replicate model and grade_with_judge's the judge; fetching and running are deterministic
  usesModel: true,
  tools: [fetchCodeBundleTool, buildReproduceShTool, runReproduceTool, gradeWithJudgeTool],
};

export default paperReSkill;
