import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import type { Publish } from '../schema/publish.ts';
import apache from './licenses/Apache-2.0.txt' with { type: 'text' };
import bsd3 from './licenses/BSD-3-Clause.txt' with { type: 'text' };
import ccby from './licenses/CC-BY-4.0.txt' with { type: 'text' };
import gpl3 from './licenses/GPL-3.0.txt' with { type: 'text' };
import mit from './licenses/MIT.txt' with { type: 'text' };

export const LICENSE_FILE = 'LICENSE';

const TEXTS: Record<NonNullable<Publish['license']>, string> = {
  MIT: mit,
  'Apache-2.0': apache,
  'BSD-3-Clause': bsd3,
  'GPL-3.0': gpl3,
  'CC-BY-4.0': ccby,
};

/** The license text of an SPDX id, its `<year>` and `<author>` filled in (an empty holder stays empty). */
export function licenseText(id: NonNullable<Publish['license']>, year: number, author: string): string {
  const text = TEXTS[id].replaceAll('<year>', String(year)).replaceAll('<author>', author.trim());
  // an empty holder leaves "2026 " or "2026, ": trim what it leaves at the line end
  return text.replace(/^(Copyright \(c\) \d{4}),? +$/m, '$1');
}

/** Write ear/LICENSE from the SPDX id unless the file is already there. True when it was written. */
export function ensureLicense(earDir: string, id: NonNullable<Publish['license']>, year: number, author: string): boolean {
  const file = join(earDir, LICENSE_FILE);
  if (existsSync(file)) return false;
  writeFileAtomic(file, licenseText(id, year, author));
  return true;
}
