import { defineCommand } from 'citty';
import { migrateNodeReports } from '../agent/migrate-reports.ts';
import { findCheckpoint } from '../core/checkpoint/locate.ts';
import { checkpointsDir } from '../core/config/environment.ts';
import { print, printJson, warn } from './output.ts';

const nodeReports = defineCommand({
  meta: { description: 'Rebuild node_report.json of every node from tree.json and the work directories (migration_source: auto)' },
  args: {
    checkpoint_dir: { type: 'positional', required: true, description: 'checkpoint directory (or its id in the checkpoints directory)' },
    overwrite: { type: 'boolean', description: 'replace reports that exist (default: keep them)' },
    json: { type: 'boolean', description: 'print {written, skipped, failed} as JSON' },
  },
  run({ args }) {
    const dir = findCheckpoint(args.checkpoint_dir, checkpointsDir());
    const r = migrateNodeReports(dir, { overwrite: args.overwrite === true });
    if (args.json) printJson(r);
    else {
      print(`${r.written.length} report(s) written, ${r.skipped.length} skipped (reports kept${opts(args.overwrite)}, or nodes never run), ${r.failed.length} failed`);
      for (const f of r.failed) warn(`${f.node_id}: ${f.error}`);
    }
    return r.failed.length > 0 ? 1 : 0;
  },
});

const opts = (overwrite: boolean | undefined) => (overwrite ? '' : '; --overwrite replaces them');

export default defineCommand({
  meta: { description: 'Migrate checkpoint records to the current formats' },
  subCommands: { 'node-reports': nodeReports },
});
