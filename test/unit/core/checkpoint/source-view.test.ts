import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, NotFoundError, TooLargeError } from '../../../../src/core/errors.ts';
import { BinaryFileError, locateSourceFile, MAX_SOURCE_BYTES, readSourceText, renderSourcePage, type SourceRoots } from '../../../../src/core/checkpoint/source-view.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let base: string;
let roots: SourceRoots;
beforeEach(() => {
  base = tempDir();
  const project = join(base, 'project');
  roots = { project, checkpoint: join(project, 'workspace', 'checkpoints', 'run'), experiments: join(project, 'workspace', 'experiments', 'run') };
  mkdirSync(join(roots.checkpoint, 'code'), { recursive: true });
  mkdirSync(join(roots.experiments, 'node_1'), { recursive: true });
  writeFileSync(join(roots.checkpoint, 'code', 'main.py'), 'print(1)\n');
  writeFileSync(join(roots.experiments, 'node_1', 'run.py'), 'x = 1\n');
  writeFileSync(join(project, 'README.md'), '# p\n');
  writeFileSync(join(base, 'secret.txt'), 'outside\n');
});
afterEach(() => removeDir(base));

describe('locateSourceFile', () => {
  test('relative to the checkpoint, or absolute inside one of the three roots', () => {
    expect(locateSourceFile('code/main.py', roots)).toBe(join(roots.checkpoint, 'code', 'main.py'));
    expect(locateSourceFile(join(roots.experiments, 'node_1', 'run.py'), roots)).toBe(join(roots.experiments, 'node_1', 'run.py'));
    expect(locateSourceFile(join(roots.project, 'README.md'), roots)).toBe(join(roots.project, 'README.md'));
  });

  test.each(['../../../../secret.txt', 'code/../../run2/x', '..'])('refuses %s (leaves the checkpoint)', (p) => {
    expect(() => locateSourceFile(p, roots)).toThrow(InputError);
  });

  test('refuses absolute paths elsewhere', () => {
    for (const p of ['/etc/passwd', join(base, 'secret.txt')]) expect(() => locateSourceFile(p, roots)).toThrow(/is outside the active checkpoint, its experiments directory and the project root/);
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
