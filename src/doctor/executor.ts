import type { Config } from '../core/config/config.ts';
import { effective } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { oneLine } from '../core/errors.ts';
import { findBinary, type SlurmPartition, slurmPartitions } from '../sandbox/detect.ts';
import { checkGpuRequest, NO_GRES_OVERRIDE } from '../sandbox/preconditions.ts';
import { type DoctorRow, row } from './row.ts';

const AREA = 'executor';
/** The submit command of each batch scheduler. */
const SUBMIT: Readonly<Record<string, string>> = { slurm: 'sbatch', pbs: 'qsub', lsf: 'bsub' };

/** Where node commands run: local needs nothing; a scheduler needs its submit command, Slurm also the partition and the GPUs asked for. */
export async function checkExecutor(cfg: Config, env: Env): Promise<DoctorRow[]> {
  const executor = String(effective(cfg, 'executor').value);
  const submit = SUBMIT[executor];
  if (submit === undefined) return [row(AREA, executor, 'ok', 'node commands run on this machine', true)];
  const path = findBinary(submit, env);
  if (path === null) return [row(AREA, submit, 'fail', `${submit} is not on PATH, and the executor is ${executor}`, true, 'run svc on a login node of the cluster, or set SVC_EXECUTOR=local')];
  const rows = [row(AREA, submit, 'ok', path, true)];
  if (executor !== 'slurm') return rows;
  let partitions: SlurmPartition[];
  try {
    partitions = await slurmPartitions(env);
  } catch (err) {
    return [...rows, row(AREA, 'partition', 'fail', oneLine(err), true, 'check that the Slurm controller answers (sinfo)')];
  }
  const wanted = effective(cfg, 'partition').value;
  const names = partitions.map((p) => p.name).join(', ') || 'none';
  let partition: string | null = null;
  if (wanted === null) {
    const first = partitions.find((p) => p.default) ?? partitions[0];
    if (first === undefined) rows.push(row(AREA, 'partition', 'fail', 'sinfo reports no partition', true, 'ask the cluster admins which partition to use'));
    else {
      partition = first.name;
      rows.push(row(AREA, 'partition', 'ok', `none configured: the scheduler's ${first.name} is used`, true));
    }
  } else if (partitions.some((p) => p.name === wanted)) {
    partition = String(wanted);
    rows.push(row(AREA, 'partition', 'ok', `${partition} exists (sinfo)`, true));
  } else {
    rows.push(row(AREA, 'partition', 'fail', `partition ${String(wanted)} is not in sinfo (it has: ${names})`, true, 'set SVC_SLURM_PARTITION (svc settings --partition) to one of them'));
  }
  rows.push(await checkGres(Number(effective(cfg, 'gpus').value), partition, env));
  return rows;
}

/** GPUs asked for must be a generic resource of the partition; the override submits without them, which is a warning. */
async function checkGres(gpus: number, partition: string | null, env: Env): Promise<DoctorRow> {
  if (gpus <= 0) return row(AREA, 'GRES', 'skip', 'no GPUs asked for (SVC_SLURM_GPUS)', false);
  try {
    await checkGpuRequest(gpus, { ...env, [NO_GRES_OVERRIDE]: undefined }, partition);
    return row(AREA, 'GRES', 'ok', `${gpus} GPU(s) asked for; ${partition ?? 'the cluster'} has a gpu generic resource`, true);
  } catch (err) {
    const why = (err as Error).message;
    if (env[NO_GRES_OVERRIDE] === '1') return row(AREA, 'GRES', 'warn', `${why}; jobs are submitted without GPUs (${NO_GRES_OVERRIDE}=1)`, true);
    return row(AREA, 'GRES', 'fail', why, true, `choose a partition with GPUs, set SVC_SLURM_GPUS=0, or ${NO_GRES_OVERRIDE}=1 to submit without them`);
  }
}
