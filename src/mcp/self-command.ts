/**
 * The command line that runs this same program with other arguments: the compiled binary runs
 * itself; under `bun src/main.ts` the script has to be named again.
 */
export function selfCommand(args: string[]): { command: string; args: string[] } {
  const compiled = Bun.main.startsWith('/$bunfs/');
  return compiled ? { command: process.execPath, args } : { command: process.execPath, args: [Bun.main, ...args] };
}
