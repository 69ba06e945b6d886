import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The patch command agents expect on a local sandbox (bench bridge rule 2), under both names it
 * goes by; container images bring their own. It applies a unified diff from a file or stdin in the
 * current directory with patch, else git apply kept from climbing to a repository above (which
 * would read the paths from that repository's top).
 */
const SCRIPT = `#!/usr/bin/env bash
# apply_patch [FILE]: applies a unified diff (FILE, else stdin) in the current directory.
set -euo pipefail
if command -v patch >/dev/null 2>&1; then
  if [ $# -gt 0 ]; then exec patch -p1 --forward --batch -i "$1"; fi
  exec patch -p1 --forward --batch
fi
GIT_CEILING_DIRECTORIES="$(dirname "$PWD")" exec git apply --recount --whitespace=nowarn "\${1:--}"
`;

export const PATCH_COMMANDS = ['apply_patch', 'applypatch'] as const;

/** A directory holding the patch commands, for the front of the agent's PATH; remove it after the build. */
export function patchCommandDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-apply-patch-'));
  for (const name of PATCH_COMMANDS) {
    writeFileSync(join(dir, name), SCRIPT);
    chmodSync(join(dir, name), 0o755);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
