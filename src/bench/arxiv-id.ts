import { InputError } from '../core/errors.ts';
import { printable } from '../core/text.ts';

// New-style ids: YYMM.NNNN (to 2014) or YYMM.NNNNN, an optional version. Old-style ids: an archive
// (hep-th, math), an optional subject class (math.GT), a slash and YYMMNNN.
const NEW_STYLE = /^\d{4}\.\d{4,5}(v\d+)?$/;
const OLD_STYLE = /^[a-z]+(-[a-z]+)*(\.[A-Za-z]{2,})?\/\d{7}(v\d+)?$/;

/** The id as arXiv's `id_list` takes it (no `arXiv:` prefix, no spaces, version kept), or an InputError. */
export function normalizeArxivId(raw: string): string {
  const id = raw.trim().replace(/^arxiv:/i, '');
  if (NEW_STYLE.test(id) || OLD_STYLE.test(id)) return id;
  throw new InputError(`'${printable(raw)}' is not an arXiv id`, 'give a new-style id such as 2404.14193 or 2404.14193v2, or an old-style one such as hep-th/9901001');
}
