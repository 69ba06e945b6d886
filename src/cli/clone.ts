import { defineCommand } from 'citty';
import { cloneBundle, removeClonesInProgress } from '../clone/clone.ts';
import { defaultDest, parseRef } from '../clone/ref.ts';
import { loadEnv } from '../core/config/environment.ts';
import { print, printJson, warn } from './output.ts';

export default defineCommand({
  meta: { description: 'Clone an artifact bundle and verify every file against its manifest.lock (file://, https://, svc://, hosting-release:, doi:)' },
  args: {
    ref: { type: 'positional', required: true, description: 'file://<path>, https://<url>, svc://[<registry>/]<id>, hosting-release:<owner>/<repo> or doi:<doi>' },
    dest: { type: 'positional', required: false, description: 'destination directory; must not exist or be empty (default: a name from the reference)' },
    'expect-sha256': { type: 'string', description: 'the bundle digest the clone must have; a mismatch fails and keeps nothing' },
    // citty reads --no-extract as extract=false
    extract: { type: 'boolean', default: true, description: 'extract the verified tree into dest', negativeDescription: 'keep the verified archive (dest/bundle.tar.gz) instead of the tree' },
    registry: { type: 'string', description: 'svc://: the registry to ask, by name in the registries file or by URL' },
    token: { type: 'string', description: 'bearer token: the name of an environment variable holding it, else the token itself' },
    json: { type: 'boolean', description: 'print the result as JSON' },
  },
  async run({ args }) {
    const env = loadEnv();
    const dest = args.dest ?? defaultDest(parseRef(args.ref));
    // interrupted: leave no temporary directory behind
    for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const)
      process.once(sig, () => {
        removeClonesInProgress();
        process.exit(code);
      });
    const r = await cloneBundle(args.ref, dest, {
      env,
      expectSha256: args['expect-sha256'],
      noExtract: args.extract === false,
      registry: args.registry,
      token: args.token,
      warn,
    });
    if (args.json) {
      printJson(r);
      return;
    }
    print(`ref            ${r.ref}`);
    print(`dest           ${r.dest}${r.extracted ? '' : ' (archive, not extracted)'}`);
    print(`bundle_sha256  ${r.bundle_sha256}`);
    print(`file_count     ${r.file_count}`);
  },
});
