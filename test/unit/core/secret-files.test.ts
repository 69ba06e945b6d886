import { describe, expect, test } from 'bun:test';
import { isSecretPath } from '../../../src/core/secret-files.ts';

describe('isSecretPath', () => {
  test.each([
    '.aws/credentials',
    'home/u/.ssh/config',
    '.gnupg',
    'x/.docker/config.json',
    '.kube/config',
    '.env',
    '.env.local',
    'deploy/server.pem',
    'tls.KEY',
    'cert.p12',
    'cert.pfx',
    'android/release.jks',
    'app.keystore',
    'id_ed25519',
    '.netrc',
    '.git-credentials',
    '.pgpass',
    '.pypirc',
    '.npmrc',
    '.bash_history',
    '.python_history',
    '.node_repl_history',
    '.local/share/fish/fish_history',
    'secrets/token.txt',
  ])('%s holds credentials', (path) => {
    expect(isSecretPath(path)).toBe(true);
  });

  test.each(['results/metrics.json', 'code/train.py', 'history.md', 'keys.txt', 'environment.yml', '.envrc-notes/readme.md', 'docker/config.json', 'kube/config', 'keystore_notes.txt'])('%s does not', (path) => {
    expect(isSecretPath(path)).toBe(false);
  });
});
