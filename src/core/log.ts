import { createConsola, type LogObject } from 'consola';
import { format } from 'node:util';

/**
 * svc's one logger for what is not a command's own output: warnings, errors and progress notes,
 * each one line on stderr (`svc: ...`, or the tag of the part that speaks: `svc registry: ...`),
 * so that stdout stays the command's answer for pipes and scripts.
 */
export const log = createConsola({
  // SVC_DEBUG shows the debug lines too (stacks of internal errors, caches not kept)
  level: process.env.SVC_DEBUG ? 4 : 3,
  reporters: [{ log: (entry: LogObject) => process.stderr.write(`${entry.tag || 'svc'}: ${format(...entry.args)}\n`) }],
});

/** The logger of one part of svc: its lines start with `tag:`. */
export const logFor = (tag: string) => log.withTag(tag);
