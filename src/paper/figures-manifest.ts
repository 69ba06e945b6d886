import { Value } from '@sinclair/typebox/value';
import { InputError, InvalidRecordError, NotFoundError } from '../core/errors.ts';
import { readJsonObject } from '../core/json-object.ts';
import { keyPath } from '../core/key-path.ts';
import { statOrNull } from '../core/paths.ts';
import { FiguresManifest } from '../schema/figures-manifest.ts';

const REMAKE = 'make the figures again (the generate_figures stage)';

/** figures_manifest.json checked against its schema; every failure one line naming the file and the first problem. */
export function readFiguresManifest(path: string): FiguresManifest {
  const st = statOrNull(path);
  if (!st) throw new NotFoundError(`no figures manifest at ${path}`, REMAKE);
  if (!st.isFile()) throw new InputError(`${path} is not a file`, 'give the path of figures_manifest.json');
  const raw = readJsonObject(path, REMAKE) as Record<string, unknown>;
  const first = Value.Errors(FiguresManifest, raw).First();
  if (first) throw new InvalidRecordError(`${path} is not a figures manifest: ${keyPath(first.path) || 'the document'}: ${first.message.toLowerCase()}`, REMAKE);
  return raw as FiguresManifest;
}
