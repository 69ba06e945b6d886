import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../../core/atomic.ts';
import { escapeLatex } from '../../paper/latex-text.ts';
import type { FigureEntry, FiguresManifest } from '../../schema/figures-manifest.ts';
import type { DrawnFigure } from './figures.ts';

export const MANIFEST_FILE = 'figures_manifest.json';

/** A figure ready to write: its drawing, its files' bytes, and the caption it gets. */
export type FinishedFigure = { drawn: DrawnFigure; png: Uint8Array; pdf: Uint8Array | null; caption: string; captionSource: FigureEntry['caption_source'] };

/** A figure environment for the paper: the figure at the text's width, its caption, its label. */
export function figureSnippet(file: string, caption: string, label: string): string {
  return ['\\begin{figure}[htbp]', '  \\centering', `  \\includegraphics[width=0.8\\linewidth]{${file}}`, `  \\caption{${escapeLatex(caption)}}`, `  \\label{${label}}`, '\\end{figure}', ''].join('\n');
}

/**
 * Writes each figure (PDF when made, and PNG) into `dir`, then the manifest naming them. Every file
 * is written whole; when one cannot be, those this call wrote are removed again and no manifest is
 * written, so the manifest never names a figure that is not there.
 */
export function writeFigures(dir: string, figures: FinishedFigure[], notes: string[]): FiguresManifest & { manifest_path: string } {
  const written: string[] = [];
  const put = (name: string, bytes: Uint8Array) => {
    writeFileAtomic(join(dir, name), bytes);
    written.push(join(dir, name));
  };
  const manifest: FiguresManifest = { figures: [], latex_snippets: [], notes };
  try {
    for (const f of figures) {
      const png = `${f.drawn.name}.png`;
      const file = f.pdf ? `${f.drawn.name}.pdf` : png;
      put(png, f.png);
      if (f.pdf) put(file, f.pdf);
      manifest.figures.push({ file, png, kind: f.drawn.kind, caption: f.caption, caption_source: f.captionSource, label: f.drawn.label, source: f.drawn.source });
      manifest.latex_snippets.push(figureSnippet(file, f.caption, f.drawn.label));
    }
    writeJsonAtomic(join(dir, MANIFEST_FILE), manifest);
  } catch (err) {
    for (const path of written) rmSync(path, { force: true });
    throw err;
  }
  return { manifest_path: join(dir, MANIFEST_FILE), ...manifest };
}
