import { basename, dirname } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { NotFoundError } from '../../core/errors.ts';
import { isFileAt, statOrNull } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { defineTool } from '../../mcp/tool.ts';
import { type BundleFacts, bundleFacts, injectCodeAvailability } from '../../paper/code-availability.ts';
import { COMPILE_TIMEOUT_MS, compilePaper } from '../../paper/compile.ts';
import { checkpointPath } from '../checkpoint-path.ts';

const text = (description: string) => T.Optional(T.String({ description }));

export const injectCodeAvailabilityTool = defineTool({
  name: 'inject_code_availability',
  description:
    'Put a "Code availability" section before the bibliography of a paper, naming the artifact bundle: its ref, SHA-256, DOI and license, each left out when unknown. ' +
    "What is not given is read from the checkpoint (publish_record.json, ear_published/manifest.lock). A section an earlier call put there is replaced, so calling it again changes nothing; the file is written whole. " +
    'When the compiled paper is beside it (the .pdf of the same name), it is compiled again, so the PDF has the statement too. ' +
    'Returns {tex_path, statement, replaced, ref, sha256, doi, license_id, pdf_path, pages} (pdf_path and pages null when there was no PDF to update).',
  params: T.Object(
    {
      tex_path: T.String({ description: "the paper's main .tex: absolute, or relative to the run checkpoint (SVC_CHECKPOINT_DIR)" }),
      ref: text('the bundle reference publish_ear recorded (svc://..., doi:..., a file or https URL)'),
      sha256: text('the bundle digest, 64 hex digits'),
      doi: text('the DOI, 10.<registrant>/<suffix>'),
      license_id: text('SPDX license identifier, such as MIT'),
      checkpoint_dir: text('the run checkpoint to read the rest from (default: SVC_CHECKPOINT_DIR)'),
    },
    { additionalProperties: false },
  ),
  timeoutS: COMPILE_TIMEOUT_MS / 1000 + 60,
  run: async (args, ctx) => {
    const dir = args.checkpoint_dir || ctx.env.SVC_CHECKPOINT_DIR;
    if (args.checkpoint_dir && !statOrNull(args.checkpoint_dir)?.isDirectory()) throw new NotFoundError(`checkpoint_dir '${printable(args.checkpoint_dir)}' is not a directory`);
    const known: BundleFacts = dir && statOrNull(dir)?.isDirectory() ? bundleFacts(dir) : { ref: null, sha256: null, doi: null, license_id: null };
    const given = { ref: args.ref ?? known.ref, sha256: args.sha256 ?? known.sha256, doi: args.doi ?? known.doi, license_id: args.license_id ?? known.license_id };
    const tex = checkpointPath(args.tex_path, 'tex_path', ctx.env);
    const injected = injectCodeAvailability(tex, given);
    const pdf = tex.replace(/\.tex$/i, '.pdf');
    if (!isFileAt(pdf)) return { ...injected, pdf_path: null, pages: null };
    const build = await compilePaper(dirname(tex), basename(tex), ctx.env);
    return { ...injected, pdf_path: build.pdf_path, pages: build.pages };
  },
});
