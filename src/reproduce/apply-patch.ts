/**
 * Bridge rule 2: a reproduction run on this machine finds a patch command on PATH under the two
 * names agents use, `apply_patch` and `applypatch` (container images bring their own). It applies
 * a unified diff, from its file arguments or stdin, to the current directory: `git apply`, which
 * also works outside a repository, else `patch -p1`.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const APPLY_PATCH_NAMES = ['apply_patch', 'applypatch'] as const;

const SCRIPT = `#!/bin/sh
# apply_patch [FILE...]: applies a unified diff (FILE, or stdin) to the current directory
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
if [ $# -gt 0 ]; then cat -- "$@" > "$tmp" || exit 1; else cat > "$tmp"; fi
if command -v git >/dev/null 2>&1 && git apply --check "$tmp" 2>/dev/null; then
  git apply "$tmp"
  exit $?
fi
patch -p1 --forward --batch < "$tmp"
`;

/** Writes both commands into `dir` (created when missing) and returns it, for the front of PATH. */
export function applyPatchDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const name of APPLY_PATCH_NAMES) {
    const path = join(dir, name);
    writeFileSync(path, SCRIPT);
    chmodSync(path, 0o755);
  }
  return dir;
}
