import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineCommand } from 'citty';
import { COMMANDS } from '../../../src/cli/commands.ts';
import { bashScript } from '../../../src/cli/completion/bash.ts';
import { fishScript } from '../../../src/cli/completion/fish.ts';
import { completionTree, type CompletionNode } from '../../../src/cli/completion/tree.ts';
import { zshScript } from '../../../src/cli/completion/zsh.ts';
import { dispatch } from '../../../src/cli/dispatch.ts';
import ear from '../../../src/cli/ear.ts';
import { lacks } from '../../support/components.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let tree: CompletionNode;
beforeAll(async () => {
  dir = tempDir();
  tree = await completionTree(COMMANDS);
});
afterAll(() => removeDir(dir));

/** `svc completion <args>` dispatched from the real command table: exit code, stdout, stderr. */
async function completion(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const o = spyOn(process.stdout, 'write').mockImplementation((s) => out.push(String(s)) > 0);
  const e = spyOn(process.stderr, 'write').mockImplementation((s) => err.push(String(s)) > 0);
  try {
    const code = await dispatch(COMMANDS, ['completion', ...args], () => '', 'svc test');
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

/** Runs `program args` with the script written to a file as its last argument. */
function check(program: string, args: string[], script: string) {
  const file = join(dir, `svc.${program}`);
  writeFileSync(file, script);
  const r = Bun.spawnSync([program, ...args, file], { stdout: 'pipe', stderr: 'pipe' });
  return { code: r.exitCode, stderr: r.stderr.toString() };
}

/** What the bash script completes for the words typed (the last is the word under the cursor). */
function bashComplete(script: string, ...words: string[]): string[] {
  const file = join(dir, 'complete.bash');
  writeFileSync(file, script);
  const typed = words.map((w) => `'${w}'`).join(' ');
  const r = Bun.spawnSync(['bash', '--norc', '-c', `source "$0"; COMP_WORDS=(${typed}); COMP_CWORD=${words.length - 1}; _svc; printf '%s\\n' "\${COMPREPLY[@]}"`, file], { stdout: 'pipe', stderr: 'pipe' });
  expect(r.stderr.toString()).toBe('');
  expect(r.exitCode).toBe(0);
  return r.stdout.toString().split('\n').filter(Boolean);
}

/** What an interactive zsh offers on TAB after the typed line, the script loaded by compinit as `_svc`. */
function zshComplete(script: string, typed: string): string[] {
  const fpath = join(dir, 'zsh-functions');
  mkdirSync(fpath, { recursive: true });
  writeFileSync(join(fpath, '_svc'), script);
  const driver = join(import.meta.dir, '../../support/completion/zsh-complete.zsh');
  const r = Bun.spawnSync(['zsh', '-f', driver, fpath, typed], { cwd: dir, stdout: 'pipe', stderr: 'pipe', timeout: 30_000 });
  expect(r.exitCode).toBe(0);
  return r.stdout.toString().split('\n').filter(Boolean);
}

/** What fish offers for the typed line (`complete -C`), without the descriptions. */
function fishComplete(script: string, typed: string): string[] {
  const file = join(dir, 'svc.fish');
  writeFileSync(file, script);
  const r = Bun.spawnSync(['fish', '--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', file, typed], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
  expect(r.stderr.toString()).toBe('');
  expect(r.exitCode).toBe(0);
  return r.stdout.toString().split('\n').filter(Boolean).map((line) => line.split('\t')[0] ?? '');
}

describe('the completion tree', () => {
  test('holds every command of the table, the subcommands of its definition and its options', async () => {
    expect(tree.subcommands.map((c) => c.path.join(' '))).toEqual(Object.keys(COMMANDS));
    const node = (...path: string[]) => tree.subcommands.flatMap(function all(n): CompletionNode[] {
      return [n, ...n.subcommands.flatMap(all)];
    }).find((n) => n.path.join(' ') === path.join(' '));
    const earSubs = Object.keys((await (typeof ear.subCommands === 'function' ? ear.subCommands() : ear.subCommands)) ?? {});
    expect(node('ear')?.subcommands.map((s) => s.path.at(-1))).toEqual(earSubs);
    expect(node('registry', 'token')?.subcommands.map((s) => s.path.at(-1))).toEqual(['issue', 'list', 'revoke']);
    expect(node('status')?.options).toContainEqual({ names: ['--json'], takesValue: false, description: 'print the summary and nodes as JSON' });
    // an alias of one letter is a short option; an argument in snake_case is spelt as dispatch accepts it
    expect(node('delete')?.options.find((o) => o.names.includes('-y'))?.names).toEqual(['--yes', '-y']);
    expect(node('show')?.options.find((o) => o.names.includes('--checkpoints-dir'))?.takesValue).toBe(true);
    expect(node('status')?.options.at(-1)?.names).toEqual(['--help', '-h']);
  });

  test('a command whose option cannot be written into a script is refused, naming it', async () => {
    const bad = defineCommand({ meta: { description: 'x' }, args: { "it's": { type: 'boolean', description: 'x' } }, run: () => {} });
    await expect(completionTree({ odd: { description: 'odd', load: async () => bad } })).rejects.toThrow(`'--it's' of svc odd cannot be written into a completion script`);
  });
});

describe('svc completion', () => {
  test.each([
    ['bash', bashScript],
    ['zsh', zshScript],
    ['fish', fishScript],
  ] as const)('%s prints the script only, on stdout', async (shell, script) => {
    expect(await completion(shell)).toEqual({ code: 0, stdout: script(tree), stderr: '' });
  });

  test('an unknown or missing shell is one line naming the three, exit 2, nothing on stdout', async () => {
    expect(await completion('tcsh')).toEqual({ code: 2, stdout: '', stderr: "svc: unknown shell 'tcsh' (say bash, zsh or fish: svc completion bash)\n" });
    expect(await completion()).toEqual({ code: 2, stdout: '', stderr: 'svc: no shell given (say bash, zsh or fish: svc completion bash)\n' });
    // a name the table's object has without its being a shell
    expect((await completion('constructor')).code).toBe(2);
  });

  test('--help shows how to install each script', async () => {
    const help = await completion('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('source <(svc completion bash)');
    expect(help.stdout).toContain('svc completion zsh > "${fpath[1]}/_svc"');
    expect(help.stdout).toContain('svc completion fish > ~/.config/fish/completions/svc.fish');
  });
});

describe('the bash script, in a real bash', () => {
  test('bash -n accepts it', () => {
    expect(check('bash', ['-n'], bashScript(tree))).toEqual({ code: 0, stderr: '' });
  });

  test('completes a command, its subcommands and its options', () => {
    const script = bashScript(tree);
    expect(bashComplete(script, 'svc', 'sta')).toEqual(['status']);
    expect(bashComplete(script, 'svc', 'ear', '')).toEqual(['curate', 'status', 'publish', 'promote']);
    expect(bashComplete(script, 'svc', 'status', '--')).toEqual(['--json', '--help']);
    expect(bashComplete(script, 'svc', 'registry', 'token', 'r')).toEqual(['revoke']);
    expect(bashComplete(script, 'svc', 'delete', 'ck1', '-')).toEqual(['--checkpoints-dir', '--yes', '-y', '--help', '-h']);
  });

  test("an option's value and a command's argument are left to file names", () => {
    const script = bashScript(tree);
    expect(bashComplete(script, 'svc', 'ear', 'publish', '--backend', '')).toEqual([]);
    // the value is skipped: the path is still `ear publish`
    expect(bashComplete(script, 'svc', 'ear', 'publish', '--backend', 'local-tarball', '--d')).toEqual(['--dry-run']);
    expect(bashComplete(script, 'svc', 'status', '')).toEqual([]);
    // dispatch takes a subcommand only before any argument
    expect(bashComplete(script, 'svc', 'frobnicate', '')).toEqual([]);
    expect(bashComplete(script, 'svc', 'ear', 'ck1', '')).toEqual([]);
    expect(bashComplete(script, 'svc', 'status', 'ck1', '--j')).toEqual(['--json']);
  });
});

describe('the zsh and fish scripts', () => {
  test.skipIf(lacks('zsh'))('zsh -n accepts the zsh script', () => {
    expect(check('zsh', ['-n'], zshScript(tree))).toEqual({ code: 0, stderr: '' });
  });

  test.skipIf(lacks('fish'))('fish --no-execute accepts the fish script', () => {
    expect(check('fish', ['--no-execute'], fishScript(tree))).toEqual({ code: 0, stderr: '' });
  });

  test.skipIf(lacks('zsh'))('a real zsh completes a command, its subcommands and its options', () => {
    const script = zshScript(tree);
    expect(zshComplete(script, 'svc sta')).toEqual(['status']);
    expect(zshComplete(script, 'svc ear ')).toEqual(['curate', 'status', 'publish', 'promote']);
    expect(zshComplete(script, 'svc status --')).toEqual(['--json', '--help']);
    expect(zshComplete(script, 'svc registry token r')).toEqual(['revoke']);
    expect(zshComplete(script, 'svc ear publish --backend local-tarball --d')).toEqual(['--dry-run']);
  });

  test.skipIf(lacks('fish'))('a real fish completes a command, its subcommands and its options', () => {
    const script = fishScript(tree);
    expect(fishComplete(script, 'svc sta')).toEqual(['status']);
    expect(fishComplete(script, 'svc ear ').sort()).toEqual(['curate', 'promote', 'publish', 'status']);
    expect(fishComplete(script, 'svc status --').sort()).toEqual(['--help', '--json']);
    expect(fishComplete(script, 'svc registry token r')).toEqual(['revoke']);
    expect(fishComplete(script, 'svc ear publish --backend local-tarball --d')).toEqual(['--dry-run']);
  });

  test("describe each subcommand and option, quotes escaped for each shell", () => {
    const zsh = zshScript(tree);
    expect(zsh.startsWith('#compdef svc\n')).toBe(true);
    expect(zsh).toContain("'status:show a checkpoint: node tree, counts, best node, cost'");
    expect(zsh).toContain(`'restore:Load memory_backup.jsonl.gz into the checkpoint'\\''s memory agent'`);
    const fish = fishScript(tree);
    expect(fish).toContain(`complete -c svc -n '__svc_at \\'status\\'' -l json -f -d 'print the summary and nodes as JSON'`);
    expect(fish).toContain(`complete -c svc -n '__svc_at \\'delete\\'' -l yes -s y -f -d`);
    expect(fish).toContain(`-d 'Load memory_backup.jsonl.gz into the checkpoint\\'s memory agent'`);
  });
});
