import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';

/** The runs of the Monitor page's generated workspace. */
export const MONITOR_RUNS = {
  /** stopped after the search, its pipeline cut short after transform_data */
  stopped: '20261105100000_stopped_in_pipeline',
  /** newest, so the active one; its recorded PID is the test process, so it runs */
  running: '20261106100000_running_pipeline',
} as const;

/** Outputs of the bundled workflow's first two post-search stages, as they leave them. */
const FIRST_STAGE_OUTPUTS = { 'related_refs.json': { papers: [] }, 'science_data.json': { rows: [] } };

/**
 * Two runs that have reached the post-search pipeline: one running, one stopped. `gpuBin` gets an
 * executable nvidia-smi reporting one GPU, for the dashboard's PATH.
 */
export function fillMonitorWorkspace(root: string, gpuBin: string): void {
  const make = (runId: string, extra: Record<string, unknown>, pid?: number) => {
    const dir = writeCheckpoint(root, { runId, nodes: 5, extra, ...(pid === undefined ? {} : { pid }) });
    writeFileSync(join(dir, '.pipeline_started'), '2026-11-05T10:00:00Z\n');
    for (const [name, body] of Object.entries(FIRST_STAGE_OUTPUTS)) writeFileSync(join(dir, name), JSON.stringify(body));
  };
  make(MONITOR_RUNS.stopped, { status: 'stopped' });
  make(MONITOR_RUNS.running, {}, process.pid);
  mkdirSync(gpuBin, { recursive: true });
  writeFileSync(join(gpuBin, 'nvidia-smi'), "#!/bin/sh\nprintf '0, Test GPU 40GB, 37, 1024, 40960, 40\\n'\n");
  chmodSync(join(gpuBin, 'nvidia-smi'), 0o755);
}
