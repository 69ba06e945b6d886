import { version } from '../package.json';
import { COMMANDS } from './cli/commands.ts';
import { dispatch } from './cli/dispatch.ts';
import { versionLine } from './cli/version.ts';
import { log } from './core/log.ts';

function rootHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(width)}  ${c.description}`);
  return `svc ${version}: research automation in one binary

Usage: svc <command> [options]

Commands:
${lines.join('\n')}

Options:
  -h, --help     show help (also: svc <command> --help)
  -v, --version  show the version
`;
}

// `svc status big | head` closes the pipe early: that is the reader's choice, not an error
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') log.error(`cannot write output: ${err.code ?? err.message}`);
  process.exit(err.code === 'EPIPE' ? (process.exitCode ?? 0) : 1);
});

process.exitCode = await dispatch(COMMANDS, process.argv.slice(2), rootHelp, versionLine(version));
