import { defineCommand } from 'citty';
import { findCheckpoint } from '../core/checkpoint/locate.ts';
import { checkpointsDir, loadEnv } from '../core/config/environment.ts';
import { InputError } from '../core/errors.ts';
import { curateBundle } from '../ear/curate.ts';
import { earStatus } from '../ear/status.ts';
import { print, printJson, warn } from './output.ts';

const checkpointArg = { type: 'positional', required: false, description: 'checkpoint directory or id (default: SVC_CHECKPOINT_DIR)' } as const;

/** The checkpoint a command works on: the argument, else SVC_CHECKPOINT_DIR. */
function checkpointOf(arg: string | undefined): string {
  const given = arg ?? loadEnv().SVC_CHECKPOINT_DIR;
  if (given === undefined || given === '') throw new InputError('no checkpoint given', 'pass a checkpoint directory or id, or set SVC_CHECKPOINT_DIR');
  return findCheckpoint(given, checkpointsDir());
}

const curate = defineCommand({
  meta: { description: 'Curate ear/ into ear_published/ and manifest.lock under ear/publish.yaml (skipped without one)' },
  args: {
    checkpoint: checkpointArg,
    'show-files': { type: 'boolean', description: 'list the files of the bundle' },
    json: { type: 'boolean', description: 'print the result as JSON' },
  },
  async run({ args }) {
    const dir = checkpointOf(args.checkpoint);
    const r = await curateBundle(dir, { showFiles: args['show-files'] === true });
    if (args.json) {
      printJson(r);
      return;
    }
    if (r.skipped) {
      print(`skipped: ${r.reason}`);
      return;
    }
    print(`curated ${r.file_count} file(s) into ${r.ear_published_dir} (${r.excluded_count} excluded)`);
    print(`bundle_sha256 ${r.bundle_sha256}`);
    for (const f of r.files ?? []) print(`  ${f.sha256.slice(0, 12)}  ${String(f.size).padStart(10)}  ${f.path}`);
  },
});

const status = defineCommand({
  meta: { description: 'Show whether the bundle is curated, its digest and file count, and its publish record' },
  args: { checkpoint: checkpointArg, json: { type: 'boolean', description: 'print the status as JSON' } },
  run({ args }) {
    const s = earStatus(checkpointOf(args.checkpoint));
    if (args.json) printJson(s);
    else {
      print(`${s.checkpoint_id}  ${s.curated ? 'curated' : 'not curated'}${s.publish_configured ? '' : ' (no ear/publish.yaml)'}`);
      if (s.curated) {
        print(`bundle_sha256 ${s.bundle_sha256}`);
        print(`files: ${s.file_count}, excluded: ${s.excluded_count}, curated at ${s.created_at}`);
      }
      const rec = s.publish_record as Record<string, unknown> | null;
      if (rec && typeof rec === 'object') print(`published: ${String(rec.ref ?? '-')} (${String(rec.visibility ?? '-')})`);
      else print('published: -');
    }
    for (const p of s.problems) warn(p);
    return s.problems.length > 0 ? 1 : 0;
  },
});

export default defineCommand({
  meta: { description: 'Experiment artifact bundles: curate, status' },
  subCommands: { curate, status },
});
