import { type ArgsDef, type CommandDef, parseArgs, renderUsage } from 'citty';
import { InputError, oneLine, SvcError } from '../core/errors.ts';
import { log } from '../core/log.ts';

/** Commands declare their own argument types, which CommandDef<ArgsDef> does not accept. */
export type AnyCommand = CommandDef<any>;
/**
 * `jit: false`: the command runs with the JIT held back, as the binary starts (build.ts): a short
 * command that reads and prints is over before compiling would pay off, and the compilers add
 * megabytes to its memory. Every other command turns the JIT on before it loads.
 */
export type CommandEntry = { description: string; load: () => Promise<AnyCommand>; jit?: false };

/**
 * Runs one command of the table. Help and unknown options are handled here, the same way for
 * every command; a command's `run` only sees arguments that were declared.
 */
export async function dispatch(table: Record<string, CommandEntry>, argv: string[], rootHelp: () => string, versionLine: string): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (name === 'help' && rest[0] !== undefined) return await dispatch(table, [rest[0], '--help'], rootHelp, versionLine);
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      process.stdout.write(rootHelp());
      return 0;
    }
    if (name === '--version' || name === '-v') {
      process.stdout.write(`${versionLine}\n`);
      return 0;
    }
    const entry = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!entry) throw new InputError(`unknown command '${name}'`, 'see svc --help');
    if (entry.jit !== false) Bun.unsafe.setJITPolicy(1);
    return await runCommand(await entry.load(), rest, `svc ${name}`);
  } catch (err) {
    return report(err);
  }
}

async function runCommand(cmd: AnyCommand, argv: string[], path: string): Promise<number> {
  const subs = (await resolveDef(cmd.subCommands)) as Record<string, AnyCommand> | undefined;
  const [first, ...rest] = argv;
  if (subs && first !== undefined && !first.startsWith('-')) {
    // an entry may be the command or a function loading it on demand
    const sub = Object.hasOwn(subs, first) ? await resolveDef(subs[first]) : undefined;
    if (!sub) throw new InputError(`unknown command '${path} ${first}'`, `see ${path} --help`);
    return runCommand(sub, rest, `${path} ${first}`);
  }
  const argsDef = ((await resolveDef(cmd.args)) ?? {}) as ArgsDef;
  const meta = ((await resolveDef(cmd.meta)) ?? {}) as { name?: string };
  if (argv.includes('--help') || argv.includes('-h') || !cmd.run) {
    const usage = await renderUsage({ ...cmd, meta: { ...meta, name: path } });
    process.stdout.write(`${process.stdout.isTTY ? usage : stripAnsi(usage)}\n`);
    if (!cmd.run && !argv.includes('--help') && !argv.includes('-h')) return 2;
    return 0;
  }
  checkDeclared(argv, argsDef, path);
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv, argsDef);
  } catch (err) {
    const msg = stripAnsi((err as Error).message).replace(/^Missing required positional argument: (\S+)/, 'missing argument $1');
    throw new InputError(`${msg.charAt(0).toLowerCase()}${msg.slice(1)} for ${path}`, `see ${path} --help`);
  }
  const result = await cmd.run({ rawArgs: argv, args, cmd });
  return typeof result === 'number' ? result : 0;
}

/** citty ignores undeclared options; a typo must not silently change nothing. */
function checkDeclared(argv: string[], argsDef: ArgsDef, path: string): void {
  const flags = new Set<string>();
  const booleans = new Set<string>();
  let positionals = 0;
  for (const [name, def] of Object.entries(argsDef)) {
    if (def.type === 'positional') {
      // a positional hinted `<name>...` takes every argument left
      positionals += def.valueHint?.endsWith('...') ? Number.POSITIVE_INFINITY : 1;
      continue;
    }
    const alias = 'alias' in def ? def.alias : undefined;
    const aliases = alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
    for (const n of [name, kebab(name), ...aliases]) {
      flags.add(n);
      if (def.type === 'boolean') booleans.add(n);
    }
  }
  let given = 0;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--') {
      given += argv.length - i - 1;
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      given++;
      continue;
    }
    const [name = '', inline] = splitOnce(a.replace(/^--?/, ''), '=');
    const base = name.startsWith('no-') && booleans.has(name.slice(3)) ? name.slice(3) : name;
    if (!flags.has(base)) throw new InputError(`unknown option '${a}' for ${path}`, `see ${path} --help`);
    if (booleans.has(base)) {
      // citty reads any other value as true: --yes=no must not mean yes
      if (inline !== undefined && inline !== 'true' && inline !== 'false') throw new InputError(`option '--${name}' of ${path} takes no value (or true/false), got '${inline}'`);
      continue;
    }
    const value = inline ?? argv[i + 1];
    if (value === undefined || value.trim() === '' || (inline === undefined && value.startsWith('--'))) {
      throw new InputError(`option '--${name}' of ${path} needs a value`);
    }
    if (inline === undefined) i++;
  }
  if (given > positionals) throw new InputError(`too many arguments for ${path}`, `see ${path} --help`);
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

function report(err: unknown): number {
  const errno = err as NodeJS.ErrnoException;
  if (errno?.code === 'EPIPE') return 0;
  if (errno?.code && errno.path && !(err instanceof SvcError)) {
    // a file system error that reached the top without a SvcError: name the file
    log.error(`cannot ${errno.syscall ?? 'use'} ${errno.path}: ${errno.code}`);
    return 1;
  }
  if (errno?.syscall === 'write' && errno.code) {
    log.error(`cannot write output: ${errno.code}`);
    return 1;
  }
  if (err instanceof SvcError) {
    log.error(oneLine(err));
    return err.exitCode;
  }
  log.error(`internal error: ${oneLine(err)}`);
  log.debug((err as Error)?.stack ?? '');
  return 1;
}

/** A citty definition's field: the value, a promise of it, or a function giving either. */
export async function resolveDef<T>(v: T | Promise<T> | (() => T) | (() => Promise<T>) | undefined): Promise<T | undefined> {
  return typeof v === 'function' ? await (v as () => T | Promise<T>)() : await v;
}

/** How an argument named in camelCase or snake_case is spelt as an option. */
export const kebab = (s: string) => s.replace(/_/g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
