import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parseYamlFile } from '../../core/config/yaml.ts';
import { InputError } from '../../core/errors.ts';
import type { UserRubric } from '../../schema/rubric.ts';
import { keyPath } from '../../core/key-path.ts';
import { shown } from '../../science/read.ts';

/**
 * Parse a rubric file and check it against `schema` and for consistency. Every failure is one
 * InputError naming the file and the key (or the line, for YAML syntax).
 */
export function parseRubric<S extends TSchema>(text: string, file: string, id: string, schema: S): S['static'] {
  const raw = parseYamlFile(text, file);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(file, '', 'must be a mapping of keys');
  const first = Value.Errors(schema, raw).First();
  if (first) throw invalid(file, keyPath(first.path), `${first.message.toLowerCase()} (got ${shown(first.value)})`);
  const problem = inconsistency(raw as UserRubric, id);
  if (problem) throw invalid(file, problem.key, problem.why);
  return raw as S['static'];
}

/**
 * What the schema cannot say: scales run upwards, a review record's keys are unambiguous, the
 * decision threshold names a dimension and lies on its scale, and the file's id is its name.
 */
function inconsistency(r: UserRubric, id: string): { key: string; why: string } | null {
  if (r.id !== undefined && r.id !== id) return { key: 'id', why: `'${r.id}' differs from the file name '${id}'` };
  const seen = new Set<string>(['decision']);
  for (const [i, d] of r.score_dimensions.entries()) {
    if (!(d.scale[0] < d.scale[1])) return { key: `score_dimensions[${i}].scale`, why: `[${d.scale.join(', ')}] must run from a lower to a higher score` };
    if (seen.has(d.name)) return { key: `score_dimensions[${i}].name`, why: `'${d.name}' is used twice (or is the reserved name decision)` };
    seen.add(d.name);
  }
  for (const [i, s] of (r.text_sections ?? []).entries()) {
    if (seen.has(s.name)) return { key: `text_sections[${i}].name`, why: `'${s.name}' is already a score dimension or section (or is the reserved name decision)` };
    seen.add(s.name);
  }
  const decision = r.decision;
  if (!decision) return null;
  const dim = r.score_dimensions.find((d) => d.name === decision.threshold_dimension);
  if (!dim) return { key: 'decision.threshold_dimension', why: `'${decision.threshold_dimension}' is not a score dimension` };
  const [lo, hi] = dim.scale;
  if (decision.threshold_value < lo || decision.threshold_value > hi) return { key: 'decision.threshold_value', why: `${decision.threshold_value} is outside the scale [${lo}, ${hi}] of ${dim.name}` };
  if (decision.type === 'binary' && decision.options.length !== 2) return { key: 'decision.options', why: 'a binary decision has exactly two options' };
  const t = r.params?.score_threshold_decision;
  if (t !== undefined && (t < lo || t > hi)) return { key: 'params.score_threshold_decision', why: `${t} is outside the scale [${lo}, ${hi}] of ${dim.name}` };
  return null;
}

function invalid(file: string, key: string, why: string): InputError {
  return new InputError(`${file}: ${key ? `${key}: ` : ''}${why}`, 'fix the rubric file');
}
