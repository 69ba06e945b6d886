import type { Figure } from './figures.ts';

export const FIGURES_DIR = 'figures';

/** A figure's file relative to its language's directory: how Markdown refers to it and where it is written. */
export function figureFile(name: Figure['name'], ext: 'svg' | 'png'): string {
  return `${FIGURES_DIR}/${name}.${ext}`;
}
