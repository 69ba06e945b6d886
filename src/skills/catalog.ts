/**
 * Skills compiled into this binary, served by `svc skill serve <name>`. A workflow may name a
 * built-in skill that this version does not have yet; skills-list says so.
 */
export const BUILTIN_SKILLS: ReadonlySet<string> = new Set<string>();
