import { createConsola, type LogObject } from 'consola/core';

/** One log entry as one line: `svc: ...`, or the tag of the part that speaks: `svc registry: ...`. */
function line(entry: LogObject): string {
  const text = entry.args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' ');
  return `${entry.tag || 'svc'}: ${text}\n`;
}

/**
 * svc's one logger for what is not a command's own output: warnings, errors and progress notes,
 * on stderr, so that stdout stays the command's answer for pipes and scripts. consola's core only:
 * its own reporters would cost every command several MB at start.
 */
export const log = createConsola({
  // SVC_DEBUG shows the debug lines too (stacks of internal errors, caches not kept)
  level: process.env.SVC_DEBUG ? 4 : 3,
  // every line is written: consola would hold back repeats and lose its count at exit
  throttle: 0,
  reporters: [{ log: (entry: LogObject) => process.stderr.write(line(entry)) }],
});

/** The logger of one part of svc: its lines start with `tag:`. */
export const logFor = (tag: string) => log.withTag(tag);
