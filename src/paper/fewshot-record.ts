import { InputError } from '../core/errors.ts';
import type { LoadedRubric } from './rubrics.ts';

/** The key that says where an example came from: `rubric:<id>` for uploads, `svc corpus` for the published corpus. */
export const SOURCE_KEY = '_source';

/**
 * Check a review against its rubric and return the record to store, tagged with the rubric as
 * its source. Every key must be a score dimension (a number on its scale), a text section
 * (text) or `decision` (one of the rubric's options); at least one score is required. Errors
 * name the offending key.
 */
export function reviewRecord(loaded: LoadedRubric, review: unknown): Record<string, unknown> {
  if (review === null || typeof review !== 'object' || Array.isArray(review)) throw new InputError('review must be a JSON object of scores, text sections and decision');
  const { rubric, id } = loaded;
  const dimensions = new Map(rubric.score_dimensions.map((d) => [d.name, d.scale]));
  const sections = new Set((rubric.text_sections ?? []).map((s) => s.name));
  const options = rubric.decision?.options;
  const record: Record<string, unknown> = { [SOURCE_KEY]: `rubric:${id}` };
  let scores = 0;
  for (const [key, value] of Object.entries(review)) {
    if (key === SOURCE_KEY) continue; // the server sets the source
    const scale = dimensions.get(key);
    if (scale) {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw bad(key, `must be a number on the scale [${scale[0]}, ${scale[1]}], got ${shown(value)}`);
      if (value < scale[0] || value > scale[1]) throw bad(key, `${value} is outside the scale [${scale[0]}, ${scale[1]}]`);
      scores++;
    } else if (sections.has(key)) {
      if (typeof value !== 'string') throw bad(key, `must be text, got ${shown(value)}`);
    } else if (key === 'decision') {
      if (typeof value !== 'string') throw bad(key, `must be text, got ${shown(value)}`);
      if (options && !options.includes(value)) throw bad(key, `'${value}' is not one of ${options.join(', ')}`);
    } else {
      const known = [...dimensions.keys(), ...sections, 'decision'].join(', ');
      throw new InputError(`review.${key}: not a score dimension, text section or decision of rubric ${id}`, `keys of ${id}: ${known}`);
    }
    record[key] = value;
  }
  if (scores === 0) throw new InputError(`review has no score of rubric ${id}`, `score dimensions: ${[...dimensions.keys()].join(', ')}`);
  return record;
}

function bad(key: string, why: string): InputError {
  return new InputError(`review.${key}: ${why}`);
}

function shown(value: unknown): string {
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}
