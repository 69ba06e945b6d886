/**
 * Bridge rule 2: a reproduction or its build run on this machine finds a patch command on PATH
 * under the two names agents use, `apply_patch` and `applypatch` (container images bring their
 * own). It applies a unified diff from a file or stdin in the current directory with patch, else
 * git apply kept from climbing to a repository above (which would read the paths from that
 * repository's top).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const APPLY_PATCH_NAMES = ['apply_patch', 'applypatch'] as const;

const SCRIPT = `#!/usr/bin/env bash
# apply_patch [FILE]: applies a unified diff (FILE, else stdin) in the current directory.
set -euo pipefail
if command -v patch >/dev/null 2>&1; then
  if [ $# -gt 0 ]; then exec patch -p1 --forward --batch --silent -i "$1"; fi
  exec patch -p1 --forward --batch --silent
fi
GIT_CEILING_DIRECTORIES="$(dirname "$PWD")" exec git apply --recount --whitespace=nowarn "\${1:--}"
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
