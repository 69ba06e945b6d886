import type { Paper } from './types.ts';

/** A paper's writable metadata as a form holds it: text, one author a line. */
export type PaperDraft = { title: string; license: string; authors: string; venue: string; year: string; artifact_url: string };

export const EMPTY_DRAFT: PaperDraft = { title: '', license: '', authors: '', venue: '', year: '', artifact_url: '' };

export function draftOf(p: Paper): PaperDraft {
  return { title: p.title, license: p.license === 'unknown' ? '' : p.license, authors: p.authors.join('\n'), venue: p.venue, year: p.year === null ? '' : String(p.year), artifact_url: p.artifact_url };
}

/**
 * The fields of an import or metadata body. A year that is not a whole number is sent as it is
 * typed, so the API's own check names the problem.
 */
export function bodyOf(d: PaperDraft): Record<string, unknown> {
  const year = d.year.trim();
  return {
    title: d.title,
    license: d.license.trim(),
    authors: d.authors
      .split('\n')
      .map((a) => a.trim())
      .filter(Boolean),
    venue: d.venue.trim(),
    year: year === '' ? null : /^\d+$/.test(year) ? Number(year) : year,
    artifact_url: d.artifact_url.trim(),
  };
}
