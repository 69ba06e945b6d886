import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, NotFoundError, TooLargeError } from '../../../../src/core/errors.ts';
import { BinaryFileError, locateSourceFile, MAX_SOURCE_BYTES, readSourceText, renderSourcePage, type SourceRoots } from '../../../../src/core/checkpoint/source-view.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let base: string;
let roots: SourceRoots;
let project: string;
let experiments: string;
beforeEach(() => {
  base = tempDir();
  project = join(base, 'project');
  experiments = join(project, 'workspace', 'experiments', 'run');
  roots = { checkpoint: join(project, 'workspace', 'checkpoints', 'run'), experiments: () => experiments };
  mkdirSync(join(roots.checkpoint, 'code'), { recursive: true });
  mkdirSync(join(experiments, 'node_1'), { recursive: true });
  writeFileSync(join(roots.checkpoint, 'code', 'main.py'), 'print(1)\n');
  writeFileSync(join(experiments, 'node_1', 'run.py'), 'x = 1\n');
  writeFileSync(join(project, 'README.md'), '# p\n');
  writeFileSync(join(base, 'secret.txt'), 'outside\n');
});
afterEach(() => removeDir(base));

describe('locateSourceFile', () => {
  test('relative to the checkpoint, or absolute inside the checkpoint or its experiments directory', () => {
    expect(locateSourceFile('code/main.py', roots)).toBe(join(roots.checkpoint, 'code', 'main.py'));
    expect(locateSourceFile(join(experiments, 'node_1', 'run.py'), roots)).toBe(join(experiments, 'node_1', 'run.py'));
  });

  test('the project root is not a source root: its files are refused', () => {
    expect(() => locateSourceFile(join(project, 'README.md'), roots)).toThrow(/outside the active checkpoint and its experiments directory/);
  });

  test('credential files are refused wherever they are, and by where a link leads', () => {
    for (const rel of ['.aws/credentials', '.ssh/config', '.gnupg/pubring.kbx', '.docker/config.json', '.kube/config', '.netrc', '.git-credentials', '.bash_history', '.zsh_history', '.python_history', 'cert.p12', 'Id_RSA']) {
      const file = join(experiments, 'node_1', rel);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, 'secret');
      expect(() => locateSourceFile(file, roots)).toThrow(/holds secrets/);
    }
    mkdirSync(join(roots.checkpoint, '.ssh'), { recursive: true });
    writeFileSync(join(roots.checkpoint, '.ssh', 'id_ed25519'), 'KEY');
    symlinkSync(join(roots.checkpoint, '.ssh', 'id_ed25519'), join(roots.checkpoint, 'code', 'notes.txt'));
    expect(() => locateSourceFile('code/notes.txt', roots)).toThrow(/holds secrets/);
  });

  test.each(['../../../../secret.txt', 'code/../../run2/x', '..'])('refuses %s (leaves the checkpoint)', (p) => {
    expect(() => locateSourceFile(p, roots)).toThrow(InputError);
  });

  test('refuses absolute paths elsewhere', () => {
    for (const p of ['/etc/passwd', join(base, 'secret.txt')]) expect(() => locateSourceFile(p, roots)).toThrow(/is outside the active checkpoint and its experiments directory/);
  });

  test('refuses a symlink that leads out, relative or absolute', () => {
    symlinkSync(join(base, 'secret.txt'), join(roots.checkpoint, 'code', 'link.txt'));
    expect(() => locateSourceFile('code/link.txt', roots)).toThrow(InputError);
    expect(() => locateSourceFile(join(roots.checkpoint, 'code', 'link.txt'), roots)).toThrow(InputError);
  });

  test('refuses an empty path', () => {
    expect(() => locateSourceFile('  ', roots)).toThrow('no path given');
  });
});

describe('readSourceText', () => {
  test('a text file', () => {
    expect(readSourceText(join(roots.checkpoint, 'code', 'main.py'))).toBe('print(1)\n');
  });

  test('missing: not found; a directory or a FIFO: bad input', async () => {
    expect(() => readSourceText(join(roots.checkpoint, 'nope.py'))).toThrow(NotFoundError);
    expect(() => readSourceText(join(roots.checkpoint, 'code'))).toThrow(/is a directory/);
    const fifo = join(roots.checkpoint, 'pipe');
    expect(await Bun.spawn(['mkfifo', fifo]).exited).toBe(0);
    expect(() => readSourceText(fifo)).toThrow(/is not a regular file/);
  });

  test('a hard link is refused: its other name may be anywhere', () => {
    const file = join(roots.checkpoint, 'code', 'main.py');
    linkSync(file, join(base, 'elsewhere.py'));
    expect(() => readSourceText(file)).toThrow(/hard link/);
  });

  test('over 2 MB: too large; exactly 2 MB is shown', () => {
    const f = join(roots.checkpoint, 'big.txt');
    writeFileSync(f, 'a'.repeat(MAX_SOURCE_BYTES));
    expect(readSourceText(f).length).toBe(MAX_SOURCE_BYTES);
    writeFileSync(f, 'a'.repeat(MAX_SOURCE_BYTES + 1));
    expect(() => readSourceText(f)).toThrow(TooLargeError);
  });

  test('NUL bytes: binary', () => {
    const f = join(roots.checkpoint, 'model.pkl');
    writeFileSync(f, Buffer.concat([Buffer.from([0x80, 0x04, 0x95]), Buffer.alloc(100)]));
    expect(() => readSourceText(f)).toThrow(BinaryFileError);
  });
});

describe('renderSourcePage', () => {
  test('escapes everything from the file and numbers the lines', () => {
    const html = renderSourcePage('<b>x.html</b>', '<script>alert("x")</script>\r\nsecond & \'third\'\n');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('<title>&#60;b&#62;x.html&#60;/b&#62;</title>');
    expect(html).toContain('<span class="l" id="L1"><a class="n" href="#L1">1</a>&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;</span>');
    expect(html).toContain('<span class="l" id="L2"><a class="n" href="#L2">2</a>second &#38; &#39;third&#39;</span>');
    expect(html).not.toContain('id="L3"');
    expect(html).toContain('· 2 lines');
  });

  test('line numbers are padded to the widest', () => {
    const html = renderSourcePage('f', Array.from({ length: 12 }, (_, i) => `l${i}`).join('\n'));
    expect(html).toContain('href="#L1"> 1</a>l0');
    expect(html).toContain('href="#L12">12</a>l11');
  });
});
