import { basename, dirname, extname, join } from 'node:path';
import { isFileAt } from '../../core/paths.ts';
import { oneLine } from '../../core/errors.ts';
import { readFiguresManifest } from '../../paper/figures-manifest.ts';
import { missingFigures } from '../../paper/tex-sources.ts';
import { lineAt, maskComments } from '../../paper/tex-text.ts';
import type { ScienceData } from '../../schema/science-data.ts';
import type { Finding } from './finding.ts';
import { matches } from './tolerance.ts';
import type { Tolerance } from './policy.ts';

const MANIFEST = 'figures_manifest.json';

/**
 * The paper's figures against figures_manifest.json: a figure file the manifest does not list was
 * not drawn from the data (figure_unregistered); a manifest figure the text never \ref's is not
 * discussed (figure_unreferenced); a figure file that is not there, or a number a figure shows
 * that science_data.json does not hold, has no source (figure_source_missing, an error).
 * The manifest is looked for beside the paper, then in the checkpoint.
 */
export function figureFindings(texPath: string, tex: string, checkpointDir: string, science: ScienceData | null, tol: Tolerance): { errors: Finding[]; warnings: Finding[] } {
  const errors: Finding[] = [];
  const warnings: Finding[] = [];
  const src = maskComments(tex);
  const included = [...src.matchAll(/\\includegraphics\*?\s*(?:\[[^\]]*\]\s*)*\{([^{}]+)\}/g)].map((m) => ({ file: (m[1] ?? '').trim(), line: lineAt(tex, m.index) }));
  for (const f of missingFigures([{ path: texPath, name: basename(texPath), text: tex }], dirname(texPath))) {
    errors.push({ type: 'figure_source_missing', where: `line ${f.line}`, message: `figure '${f.figure}' (line ${f.line}) is not there` });
  }
  const manifestPath = [join(dirname(texPath), MANIFEST), join(checkpointDir, MANIFEST)].find(isFileAt);
  if (!manifestPath) {
    for (const f of included) warnings.push({ type: 'figure_unregistered', where: `line ${f.line}`, message: `figure '${f.file}' (line ${f.line}) is in no ${MANIFEST}: it was not drawn from the data by generate_figures` });
    return { errors, warnings };
  }
  let manifest: ReturnType<typeof readFiguresManifest>;
  try {
    manifest = readFiguresManifest(manifestPath);
  } catch (err) {
    warnings.push({ type: 'figure_unregistered', message: `${oneLine(err)}: the paper's figures cannot be checked` });
    return { errors, warnings };
  }
  const stem = (p: string) => basename(p, extname(p));
  const registered = new Set(manifest.figures.flatMap((f) => [stem(f.file), stem(f.png)]));
  for (const f of included) {
    if (!registered.has(stem(f.file))) warnings.push({ type: 'figure_unregistered', where: `line ${f.line}`, message: `figure '${f.file}' (line ${f.line}) is not in ${manifestPath}` });
  }
  const refs = new Set([...src.matchAll(/\\(?:[cC]?ref|autoref|vref|nameref|pageref)\*?\s*\{([^{}]+)\}/g)].flatMap((m) => (m[1] ?? '').split(',').map((s) => s.trim())));
  for (const fig of manifest.figures) {
    const shown = included.some((f) => stem(f.file) === stem(fig.file) || stem(f.file) === stem(fig.png));
    if (shown && !refs.has(fig.label)) warnings.push({ type: 'figure_unreferenced', key: fig.label, message: `figure ${fig.label} (${basename(fig.file)}) is never referenced with \\ref{${fig.label}}` });
    if (!shown) continue;
    for (const [key, value] of Object.entries(fig.source)) {
      const entry = science && Object.hasOwn(science.values, key) ? science.values[key] : undefined;
      if (!entry || !matches(value, entry.value, tol)) {
        errors.push({ type: 'figure_source_missing', key, where: fig.label, message: `figure ${fig.label} shows ${key} = ${value}, which science_data.json ${entry ? `gives as ${entry.value}` : 'does not hold'}` });
      }
    }
  }
  return { errors, warnings };
}
