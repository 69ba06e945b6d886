import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidRecordError } from '../../../src/core/errors.ts';
import { loadRegistries, registriesFile } from '../../../src/registry/registries.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let root: string;
let home: string;
let cwd: string;
let ckpt: string;
const warnings: string[] = [];
const warn = (l: string) => void warnings.push(l);

const write = (dir: string, name: string, url: string, token?: string) => {
  mkdirSync(join(dir, '.svc'), { recursive: true });
  writeFileSync(join(dir, '.svc', 'registries.yaml'), `registries:\n  - name: ${name}\n    url: ${url}\n${token ? `    token: "${token}"\n` : ''}`);
};

beforeEach(() => {
  root = tempDir();
  home = join(root, 'home');
  cwd = join(root, 'cwd');
  ckpt = join(root, 'ckpt');
  for (const d of [home, cwd, ckpt]) mkdirSync(d);
  warnings.length = 0;
});
afterEach(() => removeDir(root));

describe('registries file lookup', () => {
  test('SVC_REGISTRIES_FILE wins over the checkpoint, the working directory and home', () => {
    write(home, 'home', 'http://home.example');
    write(cwd, 'cwd', 'http://cwd.example');
    write(ckpt, 'ckpt', 'http://ckpt.example');
    const file = join(root, 'explicit.yaml');
    writeFileSync(file, 'registries:\n  - {name: a, url: "http://a.example/", token: svc_lit}\n  - {name: b, url: "https://b.example"}\n');
    const regs = loadRegistries({ SVC_REGISTRIES_FILE: file, SVC_CHECKPOINT_DIR: ckpt }, { cwd, home, warn });
    expect(regs).toEqual([
      { name: 'a', url: 'http://a.example', token: 'svc_lit' },
      { name: 'b', url: 'https://b.example', token: null },
    ]);
    expect(warnings).toEqual([]);
  });

  test('then $SVC_CHECKPOINT_DIR/.svc, then ./.svc, then home with a deprecation warning', () => {
    write(home, 'home', 'http://home.example');
    write(cwd, 'cwd', 'http://cwd.example');
    write(ckpt, 'ckpt', 'http://ckpt.example');
    expect(loadRegistries({ SVC_CHECKPOINT_DIR: ckpt }, { cwd, home, warn })[0]?.name).toBe('ckpt');
    expect(loadRegistries({}, { checkpointDir: ckpt, cwd, home, warn })[0]?.name).toBe('ckpt');
    expect(loadRegistries({}, { cwd, home, warn })[0]?.name).toBe('cwd');
    expect(warnings).toEqual([]);
    removeDir(join(cwd, '.svc'));
    expect(loadRegistries({}, { cwd, home, warn })[0]?.name).toBe('home');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('deprecated');
    expect(warnings[0]).toContain(join(home, '.svc', 'registries.yaml'));
  });

  test('HOME from the environment is where the deprecated file is looked for', () => {
    write(home, 'home', 'http://home.example');
    expect(registriesFile({ HOME: home }, { cwd })).toEqual({ path: join(home, '.svc', 'registries.yaml'), deprecated: true });
  });

  test('no file: no registries', () => {
    expect(loadRegistries({}, { cwd, home, warn })).toEqual([]);
  });

  test('a token $VAR or ${VAR} is read from the environment; unset gives null', () => {
    const file = join(root, 'r.yaml');
    writeFileSync(file, 'registries:\n  - {name: a, url: "http://a", token: "$TOK_A"}\n  - {name: b, url: "http://b", token: "${TOK_B}"}\n  - {name: c, url: "http://c", token: "$UNSET_X"}\n');
    expect(loadRegistries({ SVC_REGISTRIES_FILE: file, TOK_A: 'svc_a', TOK_B: 'svc_b' }, { cwd, home }).map((r) => r.token)).toEqual(['svc_a', 'svc_b', null]);
  });

  test.each([
    ['not YAML', 'registries: [unclosed'],
    ['top level a list', '- a\n- b\n'],
    ['registries not a list', 'registries: yes\n'],
    ['entry not a mapping', 'registries:\n  - just-a-string\n'],
    ['no name', 'registries:\n  - {url: "http://a"}\n'],
    ['no url', 'registries:\n  - {name: a}\n'],
    ['url not http', 'registries:\n  - {name: a, url: "ftp://a"}\n'],
    ['token not a string', 'registries:\n  - {name: a, url: "http://a", token: 5}\n'],
    ['duplicate name', 'registries:\n  - {name: a, url: "http://a"}\n  - {name: a, url: "http://b"}\n'],
  ])('a malformed file (%s) is one error naming it', (_why, text) => {
    const file = join(root, 'bad.yaml');
    writeFileSync(file, text);
    let err: unknown;
    try {
      loadRegistries({ SVC_REGISTRIES_FILE: file }, { cwd, home });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidRecordError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message.split('\n')).toHaveLength(1);
  });

  test('SVC_REGISTRIES_FILE naming a missing file is an error', () => {
    expect(() => loadRegistries({ SVC_REGISTRIES_FILE: join(root, 'nope.yaml') }, { cwd, home })).toThrow(/nope\.yaml/);
  });
});
