import { dirname } from 'node:path';
import type { Config } from '../core/config/config.ts';
import { diskFigures } from '../core/system/metrics.ts';
import { type DoctorRow, row } from './row.ts';

/** Below this much free space in the workspace, checkpoints, images and papers may not fit. */
export const MIN_FREE_GIB = 5;
const GIB = 1024 ** 3;

/** Free space on the disk of the workspace (the parent of the checkpoints directory). */
export async function checkDisk(cfg: Config): Promise<DoctorRow[]> {
  const d = diskFigures(dirname(cfg.checkpointsRoot));
  const free = d.free_bytes / GIB;
  const detail = `${free.toFixed(1)} GiB free at ${d.path}`;
  if (d.free_bytes === 0) return [row('disk', 'workspace', 'fail', `${detail}: the disk is full`, true, 'free space, or set SVC_CHECKPOINT_DIR to a larger disk')];
  if (free < MIN_FREE_GIB) return [row('disk', 'workspace', 'warn', `${detail}, below the ${MIN_FREE_GIB} GiB warning threshold`, true, 'free space, or set SVC_CHECKPOINT_DIR to a larger disk')];
  return [row('disk', 'workspace', 'ok', `${detail} (warning below ${MIN_FREE_GIB} GiB)`, true)];
}
