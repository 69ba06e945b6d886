import { defineCommand } from 'citty';
import { InputError } from '../core/errors.ts';
import type { CommandEntry } from './dispatch.ts';
import { bashScript } from './completion/bash.ts';
import { fishScript } from './completion/fish.ts';
import { completionTree, type CompletionNode } from './completion/tree.ts';
import { zshScript } from './completion/zsh.ts';

const SCRIPTS: Record<string, (root: CompletionNode) => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };

/** The completion command over `table`, which it completes (itself included): the table passes itself in, so neither imports the other. */
export const completionCommand = (table: Record<string, CommandEntry>) =>
  defineCommand({
    meta: {
      description: `Print the completion script of a shell on stdout. Install it with:
  bash: source <(svc completion bash)    (a line in ~/.bashrc)
  zsh:  svc completion zsh > "\${fpath[1]}/_svc"
  fish: svc completion fish > ~/.config/fish/completions/svc.fish
Install it again after updating svc: it lists the commands of this version`,
    },
    args: { shell: { type: 'positional', required: false, description: 'bash, zsh or fish' } },
    async run({ args }) {
      const write = args.shell !== undefined && Object.hasOwn(SCRIPTS, args.shell) ? SCRIPTS[args.shell] : undefined;
      if (!write) throw new InputError(args.shell === undefined ? 'no shell given' : `unknown shell '${args.shell}'`, 'say bash, zsh or fish: svc completion bash');
      process.stdout.write(write(await completionTree(table)));
    },
  });
