import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { InputError, NotFoundError } from '../core/errors.ts';
import { readJsonObject } from '../core/json-object.ts';
import { isFileAt } from '../core/paths.ts';
import { printable } from '../core/text.ts';
import { PUBLISHED_DIR, readManifest } from '../ear/curate.ts';
import { MANIFEST_FILE } from '../ear/manifest.ts';
import { PUBLISH_RECORD_FILE } from '../ear/status.ts';
import { escapeLatex } from './latex-text.ts';
import { CODE_AVAILABILITY_BEGIN, CODE_AVAILABILITY_END, maskComments } from './tex-text.ts';

/** What a code availability statement names; an absent one is left out of it. */
export type BundleFacts = { ref: string | null; sha256: string | null; doi: string | null; license_id: string | null };
export type CodeAvailability = BundleFacts & { tex_path: string; statement: string; replaced: boolean };

/**
 * What the checkpoint knows of its bundle: the publish record's ref, digest and minted DOI (a dry
 * run's record names nothing real), else the curated manifest.lock's digest; the license the
 * bundle was curated under.
 */
export function bundleFacts(checkpointDir: string): BundleFacts {
  const record = readJsonObject(join(checkpointDir, PUBLISH_RECORD_FILE));
  const live = record && record.dry_run !== true ? record : null;
  const lock = readManifest(join(checkpointDir, PUBLISHED_DIR, MANIFEST_FILE));
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const ref = text(live?.ref);
  const extra = live?.extra !== null && typeof live?.extra === 'object' ? (live.extra as Record<string, unknown>) : {};
  return {
    ref,
    sha256: text(live?.bundle_sha256) ?? text(lock?.bundle_sha256),
    doi: text(extra.doi) ?? (ref?.startsWith('doi:10.') ? ref.slice(4) : null),
    license_id: text(lock?.publish?.license),
  };
}

const BEGIN = CODE_AVAILABILITY_BEGIN;
const END = CODE_AVAILABILITY_END;
const BLOCK = new RegExp(`${BEGIN}[^\\n]*\\n[\\s\\S]*?${END}\\n\\n?`);

/**
 * inject_code_availability: puts a "Code availability" section naming the bundle before the
 * bibliography (or, without one, before \end{document}), replacing the one an earlier call put
 * there: running it twice with the same facts leaves the file as once. The file is written whole
 * or not at all.
 */
export function injectCodeAvailability(texPath: string, given: BundleFacts): CodeAvailability {
  if (extname(texPath).toLowerCase() !== '.tex') throw new InputError(`tex_path '${printable(texPath)}' is not a .tex file`, 'give the main .tex of the paper');
  if (!isFileAt(texPath)) throw new NotFoundError(`tex_path '${printable(texPath)}' does not exist`, 'give the main .tex of the paper');
  const facts = checkedFacts(given);
  if (Object.values(facts).every((v) => v === null)) {
    throw new InputError('nothing to state: no ref, sha256, doi or license_id given, and the checkpoint has no curated or published bundle', 'curate the bundle first (svc ear curate), or give them');
  }
  const original = readFileSync(texPath, 'utf8');
  const replaced = BLOCK.test(original);
  const tex = original.replace(BLOCK, '');
  const at = insertionPoint(tex, texPath);
  const statement = sentence(facts);
  // ragged right: a long bundle ref and a digest in typewriter type leave a justified line nothing to stretch
  const block = `${at > 0 && tex[at - 1] !== '\n' ? '\n' : ''}${BEGIN} (written by inject_code_availability, which replaces it)\n\\section*{Code availability}\n{\\raggedright\n${statement}\\par}\n${END}\n\n`;
  const updated = tex.slice(0, at) + block + tex.slice(at);
  if (updated !== original) writeFileAtomic(texPath, updated);
  return { tex_path: texPath, statement, replaced, ...facts };
}

function checkedFacts(f: BundleFacts): BundleFacts {
  const blank = (v: string | null) => (v === null || v.trim() === '' ? null : v.trim());
  const ref = blank(f.ref);
  if (ref !== null && (/[\p{Cc}]/u.test(ref) || ref.length > 500)) throw new InputError(`ref '${printable(ref)}' is not a bundle reference`, 'give the ref publish_ear recorded');
  const sha256 = blank(f.sha256)?.toLowerCase() ?? null;
  if (sha256 !== null && !/^[0-9a-f]{64}$/.test(sha256)) throw new InputError(`sha256 '${printable(sha256)}' is not a SHA-256 digest`, 'give the 64 hex digits of the bundle digest');
  const doi = blank(f.doi)?.replace(/^(?:doi:|https?:\/\/(?:dx\.)?doi\.org\/)/i, '') ?? null;
  if (doi !== null && !/^10\.\d{4,9}\/\S+$/.test(doi)) throw new InputError(`doi '${printable(doi)}' is not a DOI`, 'give it as 10.<registrant>/<suffix>');
  const license = blank(f.license_id);
  if (license !== null && !/^[A-Za-z0-9.+-]+$/.test(license)) throw new InputError(`license_id '${printable(license)}' is not an SPDX license identifier`, 'give one such as MIT or Apache-2.0');
  return { ref, sha256, doi, license_id: license };
}

/** Where the statement goes: before svc's references marker, else the bibliography with its style line, else \end{document}. */
function insertionPoint(tex: string, texPath: string): number {
  const src = maskComments(tex);
  const from = Math.max(0, src.indexOf('\\begin{document}'));
  const marker = src.indexOf('\\svcreferences', from);
  if (marker >= 0) return marker;
  const bib = /\\bibliography\s*\{|\\begin\{thebibliography\}|\\printbibliography/.exec(src.slice(from));
  if (bib) {
    const at = from + bib.index;
    const style = /\\bibliographystyle\s*\{[^}]*\}\s*$/.exec(src.slice(from, at));
    return style ? from + style.index : at;
  }
  const end = src.indexOf('\\end{document}', from);
  if (end < 0) throw new InputError(`${texPath} has neither a bibliography nor \\end{document}`, 'give the main .tex of the paper');
  return end;
}

function sentence(f: BundleFacts): string {
  let s = `The code and data behind the results of this paper are available as ${f.ref ? `the artifact bundle ${typewriter(f.ref)}` : 'an artifact bundle'}`;
  const details = [f.sha256 && `SHA-256 ${typewriter(f.sha256, 16)}`, f.doi && `DOI ${typewriter(f.doi)}`].filter((d): d is string => Boolean(d));
  if (details.length > 0) s += ` (${details.join('; ')})`;
  if (f.license_id) s += `, under the ${escapeLatex(f.license_id)} license`;
  return `${s}.`;
}

/**
 * An identifier in typewriter type that may break across lines (a digest every `every`
 * characters, otherwise after separators): a two-column page has no room for 64 digits in one line.
 */
function typewriter(text: string, every?: number): string {
  const pieces = every ? (text.match(new RegExp(`.{1,${every}}`, 'g')) ?? []) : text.split(/(?<=[/:.@_-])/);
  return `\\texttt{${pieces.map(escapeLatex).join('\\allowbreak{}')}}`;
}
