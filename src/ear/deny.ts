/**
 * The built-in deny list: files that never go into a bundle, whatever include says. Matched at any
 * depth and case-insensitively: `.env`, `.env.*`, anything under a `secrets/` directory, `*.pem`,
 * `*.key`, `id_rsa`, `id_ed25519`.
 */
export function isDenied(relPath: string): boolean {
  const parts = relPath.toLowerCase().split('/');
  const name = parts[parts.length - 1] ?? '';
  if (parts.slice(0, -1).includes('secrets')) return true;
  if (name === '.env' || name.startsWith('.env.')) return true;
  if (name.endsWith('.pem') || name.endsWith('.key')) return true;
  return name === 'id_rsa' || name === 'id_ed25519';
}
