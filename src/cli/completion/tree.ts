import type { ArgsDef } from 'citty';
import { type AnyCommand, type CommandEntry, kebab, resolveDef } from '../dispatch.ts';

/** An option as typed: every spelling (`--dry-run`, `-y`), and whether a value follows it. */
export type CompletionOption = { names: string[]; takesValue: boolean; description: string };
/** A command of svc as a completion script sees it; `path` is empty for svc itself. */
export type CompletionNode = { path: string[]; description: string; subcommands: CompletionNode[]; options: CompletionOption[] };

const HELP: CompletionOption = { names: ['--help', '-h'], takesValue: false, description: 'show help' };
const VERSION: CompletionOption = { names: ['--version', '-v'], takesValue: false, description: 'show the version' };
// what a script writes bare into shell code: names of commands and options
const WORD = /^-{0,2}[A-Za-z0-9][\w-]*$/;

/** svc's commands, their subcommands and options, each command loaded from the table as dispatch loads it. */
export async function completionTree(table: Record<string, CommandEntry>): Promise<CompletionNode> {
  const subcommands = await Promise.all(Object.entries(table).map(async ([name, entry]) => commandNode([name], entry.description, await entry.load())));
  return { path: [], description: 'research automation in one binary', subcommands, options: [HELP, VERSION] };
}

/** Every node of the tree, svc itself first. */
export function allNodes(node: CompletionNode): CompletionNode[] {
  return [node, ...node.subcommands.flatMap(allNodes)];
}

async function commandNode(path: string[], description: string, cmd: AnyCommand): Promise<CompletionNode> {
  const subs = ((await resolveDef(cmd.subCommands)) ?? {}) as Record<string, AnyCommand | (() => Promise<AnyCommand>)>;
  const subcommands = await Promise.all(
    Object.entries(subs).map(async ([name, def]) => {
      const sub = (await resolveDef(def)) as AnyCommand;
      const meta = ((await resolveDef(sub.meta)) ?? {}) as { description?: string };
      return commandNode([...path, name], meta.description ?? '', sub);
    }),
  );
  const args = ((await resolveDef(cmd.args)) ?? {}) as ArgsDef;
  const options = Object.entries(args).flatMap(([name, def]): CompletionOption[] => {
    if (def.type === 'positional') return [];
    const alias = 'alias' in def ? def.alias : undefined;
    const aliases = alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
    const names = [`--${kebab(name)}`, ...aliases.map((a) => (a.length === 1 ? `-${a}` : `--${a}`))];
    return [{ names, takesValue: def.type !== 'boolean', description: firstLine(def.description ?? '') }];
  });
  for (const word of [...path, ...options.flatMap((o) => o.names)]) {
    if (!WORD.test(word)) throw new Error(`'${word}' of svc ${path.join(' ')} cannot be written into a completion script`);
  }
  return { path, description: firstLine(description), subcommands, options: [...options, HELP] };
}

const firstLine = (s: string) => s.split('\n')[0]?.trim() ?? '';
