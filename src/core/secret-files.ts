/**
 * Files that hold credentials, by path: what the dashboard never lists, serves or changes and an
 * artifact bundle never ships. Matched case-insensitively at any depth:
 * - anything under `secrets/`, `.aws/`, `.ssh/`, `.gnupg/`, and those directories themselves;
 * - `.docker/config.json`, `.kube/config`;
 * - `.env`, `.env.*`, `*.pem`, `*.key`, key stores `*.p12`, `*.pfx`, `*.jks`, `*.keystore`,
 *   private keys `id_rsa`, `id_ed25519`, `id_ecdsa`, `id_dsa`, `.netrc`, `.git-credentials`,
 *   `.pgpass`, `.pypirc`, `.npmrc`, and shell and REPL histories (`.bash_history`,
 *   `.zsh_history`, `.python_history`, any `.*_history`, and fish's `fish_history`).
 */
export function isSecretPath(relPath: string): boolean {
  const parts = relPath
    .toLowerCase()
    .split(/[\\/]/)
    .filter((p) => p !== '' && p !== '.');
  const name = parts.at(-1) ?? '';
  if (parts.some((p) => SECRET_DIRS.has(p))) return true;
  const parent = parts.at(-2);
  if ((parent === '.docker' && name === 'config.json') || (parent === '.kube' && name === 'config')) return true;
  return isSecretName(name);
}

const SECRET_DIRS = new Set(['secrets', '.aws', '.ssh', '.gnupg']);
const SECRET_NAMES = new Set(['.env', 'id_rsa', 'id_ed25519', 'id_ecdsa', 'id_dsa', '.netrc', '_netrc', '.git-credentials', '.pgpass', '.pypirc', '.npmrc', '.lesshst', 'fish_history']);

function isSecretName(name: string): boolean {
  return SECRET_NAMES.has(name) || name.startsWith('.env.') || /\.(pem|key|p12|pfx|jks|keystore)$/.test(name) || /^\.\w*_?history$/.test(name);
}
