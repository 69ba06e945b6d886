import type { LicenseAssessment } from '../schema/bench-api.ts';

// The reference implementation's classification, name for name: an exact match on the stripped,
// lower-cased license string. A name outside every set is not guessed at: it reads as not usable.

const NON_COMMERCIAL: ReadonlySet<string> = new Set(['cc by-nc', 'cc by-nc 4.0', 'cc-by-nc', 'cc-by-nc-4.0']);

/** arXiv's licence lets arXiv distribute the paper; nobody may modify it. */
export const ARXIV_LICENSE = 'arXiv non-exclusive';
const ARXIV = ARXIV_LICENSE.toLowerCase();

const MODIFIABLE: ReadonlySet<string> = new Set([
  'cc0',
  'cc0 1.0',
  'cc-0',
  'public domain',
  'cc by',
  'cc by 4.0',
  'cc-by',
  'cc-by-4.0',
  'cc by-sa',
  'cc by-sa 4.0',
  'cc-by-sa',
  'cc-by-sa-4.0',
  'mit',
  'apache-2.0',
  'apache 2.0',
  'bsd-3-clause',
  'bsd-2-clause',
]);

const PERMISSIVE: ReadonlySet<string> = new Set([...MODIFIABLE, ...NON_COMMERCIAL, ARXIV]);
const REDISTRIBUTABLE: ReadonlySet<string> = new Set([...MODIFIABLE, ARXIV]);

/** The name a license is kept under: stripped and lower-cased; none at all is `unknown`. */
export function normalizeLicense(raw: string | null | undefined): string {
  const name = (raw ?? '').trim().toLowerCase();
  return name === '' ? 'unknown' : name;
}

/**
 * What a paper's license allows. `usable` means a benchmark may copy and redistribute the paper
 * for any purpose; a license that is not usable is a warning for the user, never a refusal.
 */
export function classifyLicense(raw: string | null | undefined): LicenseAssessment {
  const name = (raw ?? '').trim().toLowerCase();
  // `unknown` is what an absent license is kept as, and reads as absent when classified again
  if (name === '' || name === 'unknown') {
    return { license: 'unknown', permissive: false, modifiable: false, redistributable: false, non_commercial: false, usable: false, note: 'license unknown — manual review required' };
  }
  const permissive = PERMISSIVE.has(name);
  const modifiable = MODIFIABLE.has(name);
  const redistributable = REDISTRIBUTABLE.has(name);
  const non_commercial = NON_COMMERCIAL.has(name);
  const usable = permissive && redistributable && !non_commercial;
  return { license: name, permissive, modifiable, redistributable, non_commercial, usable, note: noteOf(name, { permissive, modifiable, non_commercial }) };
}

function noteOf(name: string, a: { permissive: boolean; modifiable: boolean; non_commercial: boolean }): string {
  if (a.non_commercial) return `${name} is non-commercial: not usable, since a benchmark may not allow every use of the paper`;
  if (!a.permissive) return `${name} is not a license the classification knows: not usable until reviewed by hand`;
  if (!a.modifiable) return `${name} allows redistribution but not modification: usable as the paper is`;
  return `${name} is permissive: usable`;
}
