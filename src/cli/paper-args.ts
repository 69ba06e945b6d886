import { readFileSync } from 'node:fs';
import { InputError, oneLine } from '../core/errors.ts';

export type PaperFlags = { experiment?: string; rubric?: string; 'fewshot-mode'?: string; 'num-reviews-ensemble'?: string; 'num-reflections'?: string };

/** The stage the review flags go to: it reviews the compiled paper. */
const REVIEW_STAGE = 'review_paper';
/** The stages that describe the experiment: --experiment replaces what they are told. */
const EXPERIMENT_STAGES = ['search_related_work', 'write_paper', 'review_paper'];

/** The review's counts, as review_compiled_paper takes them. */
function count(flag: string, given: string | undefined, min: number, max: number): number | undefined {
  if (given === undefined) return undefined;
  const n = given.trim() === '' ? Number.NaN : Number(given);
  if (!Number.isInteger(n) || n < min || n > max) throw new InputError(`--${flag} must be a whole number from ${min} to ${max}, got '${given}'`);
  return n;
}

/** `svc paper`'s flags as tool arguments laid over the workflow's, by stage; a bad flag is an error before anything runs. */
export function paperOverrides(flags: PaperFlags): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const put = (stage: string, key: string, value: unknown) => {
    if (value !== undefined) out[stage] = { ...out[stage], [key]: value };
  };
  const mode = flags['fewshot-mode'];
  if (mode !== undefined && mode !== 'static' && mode !== 'dynamic') throw new InputError(`--fewshot-mode must be static or dynamic, got '${mode}'`);
  if (flags.rubric !== undefined && flags.rubric.trim() === '') throw new InputError('--rubric is empty', 'give a rubric id, such as neurips');
  put(REVIEW_STAGE, 'rubric_id', flags.rubric?.trim());
  put(REVIEW_STAGE, 'fewshot_mode', mode);
  put(REVIEW_STAGE, 'num_reviews_ensemble', count('num-reviews-ensemble', flags['num-reviews-ensemble'], 1, 20));
  put(REVIEW_STAGE, 'num_reflections', count('num-reflections', flags['num-reflections'], 0, 20));
  if (flags.experiment !== undefined) {
    let text: string;
    try {
      text = readFileSync(flags.experiment, 'utf8');
    } catch (err) {
      throw new InputError(`--experiment ${flags.experiment} cannot be read: ${oneLine(err)}`, 'give the experiment Markdown file');
    }
    if (text.trim() === '') throw new InputError(`--experiment ${flags.experiment} is empty`, 'give the experiment Markdown file');
    for (const stage of EXPERIMENT_STAGES) put(stage, 'experiment_summary', text);
  }
  return out;
}
