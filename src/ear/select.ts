import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isWithin } from '../core/paths.ts';
import { isSecretPath } from '../core/secret-files.ts';
import { MANIFEST_FILE } from './manifest.ts';
import { PUBLISH_FILE } from './publish-config.ts';

/** A file chosen for the bundle: its POSIX path relative to ear/ and the file to read it from. */
export type Selected = { path: string; source: string; size: number };

export type Selection = { kept: Selected[]; excluded_count: number };

/** The bundle's own lock, and the policy that made it (its include list may well match itself). */
const NEVER_SHIPPED = new Set([MANIFEST_FILE, PUBLISH_FILE]);

export type SelectRules = { include: readonly string[]; exclude: readonly string[]; alwaysKeep?: readonly string[] };

/**
 * Walk `earDir` and sort its files into kept and excluded: include is the allowlist, exclude is
 * applied after it, the built-in deny list wins over both. Symlinks are never followed out of
 * earDir (such a link counts as excluded); a link to a file inside it is read as that file; a
 * link to a directory is not descended (its files are reached by their own path). A root-level
 * manifest.lock is left out: the bundle's own is generated.
 */
export function selectFiles(earDir: string, rules: SelectRules): Selection {
  const root = realpathSync(earDir);
  const include = rules.include.map(compile);
  const exclude = rules.exclude.map(compile);
  const always = new Set(rules.alwaysKeep ?? []);
  const kept: Selected[] = [];
  let excluded = 0;
  const visit = (dir: string, prefix: string): void => {
    for (const ent of readdirSync(dir, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${ent.name}` : ent.name;
      const abs = join(dir, ent.name);
      if (ent.isDirectory()) {
        visit(abs, rel);
        continue;
      }
      let source = abs;
      if (ent.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync(abs);
        } catch {
          excluded++; // dangling
          continue;
        }
        if (!isWithin(root, real)) {
          excluded++;
          continue;
        }
        if (statSync(real).isDirectory()) continue;
        source = real;
      } else if (!ent.isFile()) {
        excluded++; // sockets, fifos, devices
        continue;
      }
      const st = lstatSync(source);
      if (!st.isFile()) {
        excluded++;
        continue;
      }
      const wanted = (include.some((m) => m(rel)) || always.has(rel)) && !exclude.some((m) => m(rel));
      if (!wanted || isSecretPath(rel) || NEVER_SHIPPED.has(rel)) {
        excluded++;
        continue;
      }
      kept.push({ path: rel, source, size: st.size });
    }
  };
  visit(root, '');
  kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { kept, excluded_count: excluded };
}

/** A glob relative to ear/; a pattern that names a directory (`data`, `data/`) takes everything under it. */
function compile(pattern: string): (rel: string) => boolean {
  const p = pattern.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  const glob = new Bun.Glob(p);
  return (rel) => {
    if (glob.match(rel)) return true;
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) if (glob.match(parts.slice(0, i).join('/'))) return true;
    return false;
  };
}
