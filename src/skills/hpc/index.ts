import type { SkillDef } from '../../mcp/tool.ts';
import { singularityBuild, singularityBuildFakeroot, singularityPull, singularityRun, singularityRunGpu } from './singularity-tools.ts';
import { jobCancel, jobStatus, slurmSubmit } from './slurm-tools.ts';

const hpcSkill: SkillDef = {
  name: 'hpc-skill',
  description: 'Submit, follow and cancel Slurm jobs, and build, pull and run apptainer/singularity images as Slurm jobs.',
  phases: ['bfts', 'reproduce'],
  env: ['SVC_WORK_DIR', 'SVC_CHECKPOINT_DIR', 'SVC_SLURM_PARTITION', 'SLURM_DEFAULT_PARTITION', 'SLURM_LOG_DIR', 'SVC_PHASE1_ALLOW_FALLBACK', 'SVC_SLURM_ALLOW_NO_GRES'],
  usesModel: false,
  tools: [slurmSubmit, jobStatus, jobCancel, singularityBuild, singularityRun, singularityPull, singularityBuildFakeroot, singularityRunGpu],
};

export default hpcSkill;
