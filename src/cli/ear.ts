import { defineCommand } from 'citty';
import { findCheckpoint } from '../core/checkpoint/locate.ts';
import { checkpointsDir, loadEnv } from '../core/config/environment.ts';
import { InputError } from '../core/errors.ts';
import { BACKEND_NAMES, BackendError, backendErrorObject } from '../ear/backends/index.ts';
import { curateBundle } from '../ear/curate.ts';
import { promoteBundle, publishBundle, type PublishRecord } from '../ear/publish.ts';
import { earStatus } from '../ear/status.ts';
import { print, printJson, warn } from './output.ts';
import { log } from '../core/log.ts';

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

/**
 * A publish or promote outcome: the record as JSON, or its ref, visibility and digest; a backend
 * failure as one line naming its kind (and, with --json, the error object on stdout).
 */
async function report(outcome: Promise<PublishRecord>, json: boolean, verb: string, what: string): Promise<number> {
  let r: PublishRecord;
  try {
    r = await outcome;
  } catch (err) {
    if (!(err instanceof BackendError)) throw err;
    const o = backendErrorObject(err);
    if (json) printJson(o);
    log.error(`${what} failed (${o.kind}): ${o.error}`);
    return err.exitCode;
  }
  if (json) printJson(r);
  else {
    print(`${r.dry_run ? `dry run: would have ${verb}` : verb} ${r.ref}`);
    print(`visibility ${r.visibility}`);
    print(`bundle_sha256 ${r.bundle_sha256}`);
  }
  return 0;
}

const publish = defineCommand({
  meta: { description: 'Publish the curated bundle (first publish is always staged); writes publish_record.json' },
  args: {
    checkpoint: checkpointArg,
    backend: { type: 'string', description: `publish backend, over publish.yaml's (${BACKEND_NAMES.join(', ')})` },
    visibility: { type: 'string', description: 'visibility asked for (the first publish is staged whatever is asked)' },
    'dry-run': { type: 'boolean', description: 'send nothing; say what would be published (also SVC_PUBLISH_DRYRUN)' },
    json: { type: 'boolean', description: 'print the publish record as JSON' },
  },
  async run({ args }) {
    const dir = checkpointOf(args.checkpoint);
    if (args.backend !== undefined && args.backend.trim() === '') throw new InputError('--backend needs a value', `use one of ${BACKEND_NAMES.join(', ')}`);
    if (args.visibility !== undefined && args.visibility.trim() === '') throw new InputError('--visibility needs a value');
    return report(publishBundle(dir, { backend: args.backend, visibility: args.visibility, dryRun: args['dry-run'] === true, env: loadEnv({ checkpointDir: dir }) }), args.json === true, 'published', 'publish');
  },
});

const promote = defineCommand({
  meta: { description: 'Promote the published bundle: staged to unlisted or public, unlisted to public (demotion is refused)' },
  args: {
    checkpoint: checkpointArg,
    target: { type: 'string', description: 'public or unlisted', default: 'public' },
    json: { type: 'boolean', description: 'print the publish record as JSON' },
  },
  async run({ args }) {
    const dir = checkpointOf(args.checkpoint);
    const target = args.target;
    if (target !== 'public' && target !== 'unlisted') throw new InputError(`--target must be public or unlisted, got '${String(target).slice(0, 40)}'`);
    return report(promoteBundle(dir, target, loadEnv({ checkpointDir: dir })), args.json === true, 'promoted', 'promote');
  },
});

export default defineCommand({
  meta: { description: 'Experiment artifact bundles: curate, status, publish, promote' },
  subCommands: { curate, status, publish, promote },
});
